import { describe, expect, it } from 'vitest';
import { describeShape, shapeOfEntries } from './log-shape.js';
import { entriesOf } from './test-entries.js';

describe('shapeOfEntries', () => {
  const entries = entriesOf([[0, 'a'], [0.5], [2, 'a'], [10, 'b'], [70, 'a'], [119, 'b'], [120]]);

  it('counts records, span, mean rate and starts per window', async () => {
    const shape = await shapeOfEntries(entries);
    expect(shape).toMatchObject({ records: 7, spanMs: 120_000, meanRatePerS: 7 / 120, startsPerWindow: [4, 2, 1] });
    expect((await shapeOfEntries(entries, 30_000)).startsPerWindow).toEqual([4, 0, 1, 1, 1]);
  });

  it('gives think times: turns per conversation and the gaps between turns', async () => {
    const { thinkTime } = await shapeOfEntries(entries);
    expect(thinkTime).toMatchObject({ conversations: 2, one_time: 2 });
    expect(thinkTime.turns_per_conversation).toEqual({ p50: 2, p95: 3, max: 3 });
    // Gaps: a 2 s and 68 s, b 109 s.
    expect(thinkTime.gap_ms!.p50).toBeCloseTo(68_000, -2);
    expect(thinkTime.gap_ms!.max).toBe(109_000);
  });

  it('says the shape in words, with the replay time at the scale', async () => {
    const lines = describeShape(await shapeOfEntries(entries), 2);
    expect(lines[0]).toBe('traffic log: 7 records over 120s recorded (0.06/s on average), replayed in 60s (time scale 2)');
    expect(lines.join('\n')).toMatch(/turns per conversation p50 2, p95 3, max 3/);
    expect(lines.join('\n')).toMatch(/think time between turns \(recorded\) p50 68/);
  });

  it('has no rate for a log at one instant', async () => {
    expect((await shapeOfEntries(entriesOf([[0], [0]]))).meanRatePerS).toBeNull();
  });
});
