// The header's load line comes from the LoadSpec alone (one owner): a spec with no flag behind it
// (a suite's `load:` block, a unit's options) reads the same as one built from flags.
import { describe, expect, it } from 'vitest';
import { buildLoadSpec, describeLoad } from './index.js';

describe('describeLoad', () => {
  it('reads every kind from its spec', () => {
    expect(describeLoad(buildLoadSpec({ concurrency: 4 }), { concurrency: 4 })).toBeNull();
    expect(describeLoad(buildLoadSpec({ concurrency: 4, sweep: 3, durationMs: 20_000 }), { concurrency: 4 }))
      .toMatch(/^sweep: two probes, then 3 rates of 20s each, at most 64 in flight \(--max-in-flight, default the larger of --concurrency and 64\); .* over 1s late/);
    expect(describeLoad(buildLoadSpec({ concurrency: 4, rate: 5, durationMs: 2000, maxInFlight: 8 }), { concurrency: 4, shard: { index: 1, count: 2 } }))
      .toMatch(/^10 planned starts over 2s \(shard 1\/2\), at most 8 in flight \(--max-in-flight\);/);
    expect(describeLoad(buildLoadSpec({ concurrency: 4, concurrencyStages: [{ durationMs: 1000, targetPerS: 2 }, { durationMs: 2500, targetPerS: 6 }] }), { concurrency: 4 }))
      .toMatch(/^--concurrency-stages: 2 stages of workers from 0 \(1s→2, 2.5s→6\), up to 6 workers over 3.5s/);
  });
});
