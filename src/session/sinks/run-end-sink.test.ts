import { describe, expect, it } from 'vitest';
import { runEndSink } from './run-end-sink.js';

describe('run end sink', () => {
  it('records the runner\'s stop and the starts it dropped', () => {
    const sink = runEndSink(() => undefined);
    sink.onEvent!({ type: 'dropped', count: 2 });
    sink.onEvent!({ type: 'stopped', reason: 'budget-exhausted', detail: 'the budget is spent' });
    sink.onEvent!({ type: 'dropped', count: 3 });
    expect(sink.close()).toEqual({ dropped: 5, stop: { reason: 'budget-exhausted', detail: 'the budget is spent' } });
  });

  it('halts the runner on the first stop condition met; a later one, or one after the runner stopped, changes nothing', () => {
    const halted: string[] = [];
    const sink = runEndSink((by, detail) => halted.push(`${by}: ${detail}`));
    sink.halt({ by: 'max-errors', detail: '3 failed' });
    sink.halt({ by: 'setup', detail: 'refused' });
    expect(halted).toEqual(['max-errors: 3 failed']);
    expect(sink.close()).toEqual({ dropped: 0, abort: { by: 'max-errors', detail: '3 failed' } });

    const stopped = runEndSink((by) => halted.push(by));
    stopped.onEvent!({ type: 'stopped', reason: 'interrupted', detail: 'interrupted by a signal' });
    stopped.halt({ by: 'threshold', detail: 'p95 failed' });
    expect(halted).toHaveLength(1);
    expect(stopped.close()).toEqual({ dropped: 0, stop: { reason: 'interrupted', detail: 'interrupted by a signal' } });
  });
});
