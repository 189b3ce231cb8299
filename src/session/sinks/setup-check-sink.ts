// The setup check as a sink: the first answers all refused the same way (a mistyped chat id, an
// unknown model) halt the run with a message naming what to check (session/setup-check.ts).
import type { RunEvent } from '../../runner/index.js';
import { createSetupCheck, type SetupTarget } from '../setup-check.js';
import type { RunControl, RunSink } from './sink.js';

export function setupCheckSink(target: SetupTarget, control: Pick<RunControl, 'halt'>): RunSink {
  const setup = createSetupCheck({ boardId: target.boardId, chatId: target.chatId });
  return {
    name: 'setup-check',
    onEvent(event: RunEvent): void {
      if (event.type !== 'sample' || event.sample.warmup === true) return;
      const decision = setup.observe(event.sample);
      if (decision !== null) control.halt(decision);
    },
    close: () => ({}),
  };
}
