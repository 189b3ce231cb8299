import { describe, expect, it } from 'vitest';
import { sample } from '../../test-support/fixtures.js';
import { progressSink, type ProgressInfo, type SweepEvent } from './progress-sink.js';

const sweep: SweepEvent = {
  type: 'sweep', start_ms: 2000, rate_ms: 1000, rates: [1, 2],
  probes: {
    sequential: { concurrency: 1, start_ms: 0, end_ms: 1000, starts: 1, rate_per_s: 1 },
    saturation: { concurrency: 8, start_ms: 1000, end_ms: 2000, starts: 3, rate_per_s: 3 },
  },
};

describe('progress sink', () => {
  it('counts a result when it is recorded: done, errors, credits used (earlier segments\' included)', () => {
    const seen: ProgressInfo[] = [];
    const ledger = { spent: 0 };
    const sink = progressSink({ total: 10, done: 2, previousUnits: 500 }, ledger, { onProgress: (p) => seen.push({ ...p }) });
    ledger.spent = 0.03;
    sink.onRecorded!(sample({ credits: 0.01 }));
    sink.onRecorded!(sample({ outcome: 'timeout', credits: 0.01 }));
    sink.onRecorded!(sample({ outcome: 'skipped', credits: 0 }));
    expect(seen.map((p) => [p.done, p.errors])).toEqual([[3, 0], [4, 1], [5, 1]]);
    expect(seen[2]).toEqual({ done: 5, total: 10, errors: 1, creditsUsed: 0.035 });
    // Spent without a result line (a replayed turn): 0.01 of the 0.03.
    expect(sink.close()).toEqual({ unrecordedUnits: 1000 });
  });

  it('passes on the runner\'s stop and a sweep\'s rates', () => {
    const said: string[] = [];
    const sink = progressSink({ total: 1, done: 0, previousUnits: 0 }, { spent: 0 }, {
      onStopping: (reason, detail) => said.push(`${reason}: ${detail}`), onSweep: (s) => said.push(`rates ${s.rates.join(',')}`),
    });
    sink.onEvent!(sweep);
    sink.onEvent!({ type: 'stopped', reason: 'interrupted', detail: 'interrupted by a signal' });
    sink.onEvent!({ type: 'held', count: 2 });
    expect(said).toEqual(['rates 1,2', 'interrupted: interrupted by a signal']);
  });
});
