// Shards' timelines into one: lines aligned on wall-clock seconds, counters summed, interval
// histograms added exactly, gauges (in flight, target) summed, loop delay the worst shard's.
// Streaming: one line per shard is held at a time, whatever the runs' lengths.
import type { RunLoad } from '../domain/load.js';
import type { TimelineLine } from '../domain/timeline.js';
import { IntervalSum } from './interval-bucket.js';

/** The merged lines in order; offsets measured from the earliest shard's start. */
export async function* mergeTimelines(shards: ReadonlyArray<AsyncIterable<TimelineLine>>): AsyncGenerator<TimelineLine> {
  const iterators = shards.map((s) => s[Symbol.asyncIterator]());
  const heads = await Promise.all(iterators.map(async (it) => (await it.next()).value as TimelineLine | undefined));
  // Each shard's start in wall-clock ms, from its first line: the merged run starts with the earliest.
  const starts = heads.filter((h): h is TimelineLine => h !== undefined).map((h) => h.t * 1000 - h.offset_ms);
  if (starts.length === 0) return;
  const startWallMs = Math.min(...starts);
  for (;;) {
    const present = heads.filter((h): h is TimelineLine => h !== undefined);
    if (present.length === 0) return;
    const t = Math.min(...present.map((h) => h.t));
    const sum = new IntervalSum();
    let target: number | null = null;
    let rebuilt = false;
    for (let i = 0; i < heads.length; i++) {
      // A shard's lines are in order; a repeated second (a resume) adds into the same merged line.
      while (heads[i] !== undefined && heads[i]!.t === t) {
        const line = heads[i]!;
        sum.addLine(line);
        if (line.target_rate !== null) target = (target ?? 0) + line.target_rate;
        rebuilt ||= line.rebuilt === true;
        heads[i] = (await iterators[i]!.next()).value as TimelineLine | undefined;
      }
    }
    const merged = sum.toLine(t, t * 1000 - startWallMs, target === null ? null : Math.round(target * 1000) / 1000);
    yield rebuilt ? { ...merged, rebuilt: true } : merged;
  }
}

/**
 * The merged run's stages: each shard records the rates of its own segment, so the merged targets
 * are their sum, when the shards ran the same stages (same boundaries); else none is claimed.
 */
export function mergeRunLoads(loads: ReadonlyArray<RunLoad | undefined>): RunLoad | undefined {
  if (loads.length === 0 || loads.some((l) => l === undefined)) return undefined;
  const [first, ...rest] = loads as RunLoad[];
  const same = rest.every((l) => l.stages.length === first!.stages.length && l.stages.every((s, i) => s.start_ms === first!.stages[i]!.start_ms && s.end_ms === first!.stages[i]!.end_ms));
  if (!same) return undefined;
  return {
    stages: first!.stages.map((s, i) => ({
      ...s,
      from_rate: round3(loads.reduce((a, l) => a + l!.stages[i]!.from_rate, 0)),
      to_rate: round3(loads.reduce((a, l) => a + l!.stages[i]!.to_rate, 0)),
    })),
    max_in_flight: loads.reduce((a, l) => a + l!.max_in_flight, 0),
  };
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;
