import { describe, expect, it } from 'vitest';
import { Channel } from '../../runner/channel.js';
import type { RunEvent } from '../../runner/index.js';
import { sample } from '../../test-support/fixtures.js';
import { pumpEvents } from './pump.js';
import type { RunSink } from './sink.js';

const start = (id: number): RunEvent => ({ type: 'start', id, at_ms: id, intended_at_ms: null });
const same = { recordable: (e: RunEvent): RunEvent => e, failed: () => false };

/** A sink that logs `name:event` (a start by its id), synchronously or after `waitTurns` of the event loop. */
function logging(name: string, log: string[], waitTurns = 0): RunSink {
  const label = (e: RunEvent): string => `${name}:${e.type === 'start' ? e.id : e.type}`;
  return {
    name,
    onEvent: waitTurns === 0 ? (e) => void log.push(label(e)) : async (e) => {
      for (let i = 0; i < waitTurns; i += 1) await new Promise((resolve) => setImmediate(resolve));
      log.push(label(e));
    },
    close: () => ({}),
  };
}

describe('pumping the run\'s events to its sinks', () => {
  it('gives each event, as recorded, to every sink in the list\'s order before the next event reaches any', async () => {
    const channel = new Channel<RunEvent>();
    const log: string[] = [];
    const marked = sample({ caseId: 'marked' });
    channel.push(start(1));
    channel.push({ type: 'sample', sample: sample() });
    channel.push(start(2));
    channel.close();
    const recordable = (e: RunEvent): RunEvent => (e.type === 'sample' ? { type: 'sample', sample: marked } : e);
    const seen: RunEvent[] = [];
    const sinks = [logging('results', log), logging('slow', log, 3), { name: 'mute', close: () => ({}) }, { name: 'last', onEvent: (e: RunEvent) => void seen.push(e), close: () => ({}) }];
    expect(await pumpEvents(channel, sinks, { ...same, recordable })).toBeNull();
    // The slow sink's promise is awaited: the next event waits for it.
    expect(log).toEqual(['results:1', 'slow:1', 'results:sample', 'slow:sample', 'results:2', 'slow:2']);
    expect(seen[1]).toEqual({ type: 'sample', sample: marked });
  });

  it('stops at the first event after a write failed', async () => {
    const channel = new Channel<RunEvent>();
    for (let id = 1; id <= 4; id += 1) channel.push(start(id));
    channel.close();
    const log: string[] = [];
    let failed = false;
    const failing: RunSink = { name: 'results', onEvent: (e) => void (failed = e.type === 'start' && e.id === 2), close: () => ({}) };
    await pumpEvents(channel, [failing, logging('after', log)], { ...same, failed: () => failed });
    expect(log).toEqual(['after:1', 'after:2']);
  });

  it('returns the failure of the stream or of a sink, never throws it', async () => {
    const broken = new Channel<RunEvent>();
    broken.close(new Error('worker 2 exited'));
    expect(await pumpEvents(broken, [], same)).toEqual({ error: new Error('worker 2 exited') });
    const channel = new Channel<RunEvent>();
    channel.push(start(1));
    channel.close();
    const throwing: RunSink = { name: 'bad', onEvent: () => { throw new Error('boom'); }, close: () => ({}) };
    expect(await pumpEvents(channel, [throwing], same)).toEqual({ error: new Error('boom') });
  });
});
