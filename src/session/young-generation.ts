// The young generation's size, held at two 4 MB semi-spaces (V8's default lets it grow to two 16 MB ones).
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

const MB = 1024 * 1024;

/**
 * The committed size of the new space the cap stops at: two semi-spaces of 4 MB. V8 doubles the new
 * space (1, 2, 4, 8, 16 MB semi-spaces) as objects survive scavenges, and a load run's start-up and
 * loop always take it to 16: 32 MB of RSS, all of it resident (the two halves take turns), for
 * objects that live one request. At two 8 MB (issue 21) the 1M-request run's peak RSS fell by ~16 MB
 * and the run phase's CPU time did not show it; at two 4 MB (issue 36) a scavenge comes twice as
 * often again and copies the same live set (what is in flight): the 1M-request run 125.6 → 118.3 MB
 * at 12,809 → 12,759 req/s (+2% CPU), the 10M-record replay 146–148 → 138 MB, streams' CPU 1.30 →
 * 1.34× bare undici (bench/, BENCHMARKS.md). The cap is set between turns of the event loop (the gc
 * observer's entries come then): two scavenges in one busy turn can take the space one doubling past.
 */
export const YOUNG_CAP_BYTES = 8 * MB; // both semi-spaces

/** V8's own growth factor (--semi-space-growth-factor's default), restored when the cap is lifted. */
const DEFAULT_GROWTH = 2;

let observer: PerformanceObserver | null = null;
let growth = DEFAULT_GROWTH;
/** Holds (holdYoungGeneration) in force: while any is, the new space does not grow at all. */
let holds = 0;

function setGrowth(factor: number): void {
  if (factor === growth) return;
  growth = factor;
  setFlagsFromString(`--semi-space-growth-factor=${factor}`);
}

/** The new space's committed bytes (both semi-spaces). */
export function newSpaceBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/**
 * --max-semi-space-size can only be given on node's command line (V8 reads it once, when the heap is
 * made), and the bin is started as `node main.js` or through npx. The growth factor is read each time
 * V8 grows the new space, so after each collection it is set to 1 (no growth) once the new space
 * reached the cap, and back to V8's 2 if V8 shrank it below (an idle stretch). Process-wide: the flag
 * is every isolate's, so a run with worker threads lifts the cap (releaseYoungGeneration) first.
 */
export function capYoungGeneration(): void {
  if (observer) return;
  observer = new PerformanceObserver(() => setGrowth(capped()));
  observer.observe({ entryTypes: ['gc'] });
}

/** The growth factor the cap (and any hold) wants now. */
function capped(): number {
  if (holds > 0) return 1;
  return observer && newSpaceBytes() >= YOUNG_CAP_BYTES ? 1 : DEFAULT_GROWTH;
}

/**
 * Keeps the new space from growing at all until the returned function is called (holds nest).
 * `kbbench validate` holds it for the whole command: reading a large YAML suite keeps what it builds
 * while throwing away far more, and printing its plan allocates as much again, so the new space
 * grew to the cap (32 MB before there was one) for nothing (100k one-turn threads: 176-218 → 148
 * MB peak for the read, bench/memory-yaml.mjs). A validate is not a hot path.
 */
export function holdYoungGeneration(): () => void {
  holds += 1;
  setGrowth(1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holds -= 1;
    setGrowth(capped());
  };
}

/** Worker threads' isolates share the flag: they grow their young generation as V8 does by default. */
export function releaseYoungGeneration(): void {
  observer?.disconnect();
  observer = null;
  setGrowth(DEFAULT_GROWTH);
}
