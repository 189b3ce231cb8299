import { describe, expect, it } from 'vitest';
import { buildLoadSpec, FLAG_NAMES, type LoadInput } from '../../index.js';
import { trafficStages, type TrafficLoad } from './index.js';
import { shapeOfEntries } from './log-shape.js';
import { entriesOf } from './test-entries.js';

// 6 records over 120 s: 4 in the first minute, 1 in the second, 1 at 120 s.
const shape = await shapeOfEntries(entriesOf([[0, 'a'], [10], [20, 'a'], [50], [90], [120]]));
const input = (more: Partial<LoadInput> = {}): LoadInput => ({ concurrency: 4, traffic: { file: '/logs/a.jsonl', shape }, ...more });

describe('the traffic kind', () => {
  it('builds a replay at the recorded pace by default', () => {
    expect(buildLoadSpec(input())).toMatchObject({ kind: 'traffic', file: '/logs/a.jsonl', timeScale: 1, loop: false, maxInFlight: 64 });
  });

  it('turns --traffic-rate into a time scale that keeps the shape', () => {
    // The log's mean is 6 / 120 s = 0.05/s: 1/s is twenty times faster.
    expect((buildLoadSpec(input({ trafficRate: 1 })) as TrafficLoad).timeScale).toBeCloseTo(20);
  });

  it('refuses what it cannot do, naming the flag', () => {
    expect(() => buildLoadSpec(input({ timeScale: 2, trafficRate: 1 }))).toThrow(/--time-scale and --traffic-rate both set/);
    expect(() => buildLoadSpec(input({ loop: true }))).toThrow(/--loop .* give --duration/);
    expect(() => buildLoadSpec(input({ rate: 5, durationMs: 1000 }))).toThrow(/--traffic replays a log at its own instants; leave out --rate/);
    expect(() => buildLoadSpec({ concurrency: 4, timeScale: 2 })).toThrow(/--time-scale speeds up a replayed log: it needs --traffic/);
    expect(() => buildLoadSpec(input({ traffic: { file: 'e.jsonl', shape: { ...shape, records: 0 } } }), FLAG_NAMES)).toThrow(/holds no record/);
  });

  it('has the log\'s windows as stages, on the replay\'s clock', () => {
    const spec = buildLoadSpec(input({ timeScale: 2 })) as TrafficLoad;
    expect(trafficStages(spec).map((s) => [s.start_ms, s.end_ms, Math.round(s.to_rate * 1000) / 1000])).toEqual([
      [0, 30_000, 0.133], [30_000, 60_000, 0.033], [60_000, 60_001, 0.033],
    ]);
    const looped = buildLoadSpec(input({ loop: true, durationMs: 150_000 })) as TrafficLoad;
    // Passes of 144 s (the span and one mean gap): three windows, then the second pass's first, cut at 150 s.
    expect(trafficStages(looped).map((s) => s.start_ms)).toEqual([0, 60_000, 120_000, 144_000]);
    expect(trafficStages(spec, 0.5)[0]!.to_rate).toBeCloseTo(4 / 30 / 2);
  });
});
