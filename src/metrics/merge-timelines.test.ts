// Merging timelines is exact: two shards' lines, merged, equal the lines of one recorder that saw everything.
import { describe, expect, it } from 'vitest';
import { sample } from '../test-support/fixtures.js';
import { seededRandom } from '../report/test-support/synthetic-run.js';
import type { Sample } from '../domain/sample.js';
import type { TimelineLine } from '../domain/timeline.js';
import { IntervalSum } from './interval-bucket.js';
import { mergeRunLoads, mergeTimelines } from './merge-timelines.js';

async function* linesOf(lines: readonly TimelineLine[]): AsyncGenerator<TimelineLine> {
  yield* lines;
}

function randomSample(random: () => number): Sample {
  const error = random() < 0.1;
  const latencyMs = 50 + random() * 3000;
  return {
    ...sample({ latencyMs, ttfcMs: latencyMs * random(), outcome: error ? 'http_error' : 'ok', pass: !error && random() < 0.9, credits: Math.round(random() * 1000) / 100_000 }),
    corrected_latency_ms: latencyMs + random() * 500, gap_mean_ms: random() * 40,
  };
}

describe('mergeTimelines', () => {
  it('adds shards second by second exactly: counters, gauges and interval histograms', async () => {
    const random = seededRandom(7);
    const t0 = 1_790_000_000;
    const shardA: TimelineLine[] = [];
    const shardB: TimelineLine[] = [];
    const whole: TimelineLine[] = [];
    // Shard B starts 2 s later (and 300 ms into its second) and ends 1 s earlier.
    for (let i = 0; i < 12; i++) {
      const a = new IntervalSum();
      const b = new IntervalSum();
      const all = new IntervalSum();
      const inB = i >= 2 && i < 11;
      for (let k = 0; k < 40; k++) {
        const s = randomSample(random);
        const target = inB && k % 2 === 1 ? b : a;
        target.addSample(s);
        all.addSample(s);
        target.starts += 1;
        all.starts += 1;
      }
      for (const [sum, n] of [[a, 3], [b, inB ? 5 : 0]] as const) {
        sum.inFlight = n;
        all.inFlight += n;
      }
      shardA.push({ ...a.toLine(t0 + i, i * 1000 - 100, 10), loop_delay_p99_ms: 1 + i });
      if (inB) shardB.push({ ...b.toLine(t0 + i, (i - 2) * 1000 - 300, 5), loop_delay_p99_ms: 20 });
      whole.push(all.toLine(t0 + i, i * 1000 - 100, inB ? 15 : 10));
    }
    const merged: TimelineLine[] = [];
    for await (const line of mergeTimelines([linesOf(shardA), linesOf(shardB)])) merged.push(line);
    expect(merged).toHaveLength(12);
    merged.forEach((line, i) => {
      const { loop_delay_p99_ms: delay, ...rest } = line;
      const { loop_delay_p99_ms: _none, ...expected } = whole[i]!;
      expect(rest).toEqual(expected);
      expect(delay).toBe(i >= 2 && i < 11 ? Math.max(20, 1 + i) : 1 + i);
    });
  });

  it('sums the shards’ stage rates when they ran the same stages', () => {
    const stages = [{ index: 0, from_rate: 0, to_rate: 5, start_ms: 0, end_ms: 10_000 }];
    expect(mergeRunLoads([{ stages, max_in_flight: 8 }, { stages, max_in_flight: 8 }])).toEqual({
      stages: [{ ...stages[0], to_rate: 10 }], max_in_flight: 16,
    });
    expect(mergeRunLoads([{ stages, max_in_flight: 8 }, undefined])).toBeUndefined();
  });
});
