// A full garbage collection between the steps of building a run's metrics and reports, in a process that asked for it (the CLI's: cli/heap.ts).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Building the reports of 40,000 results allocates ~1.3 GB and keeps ~15 MB (a heap profile of
 * `kbbench report` on a 10M-record replay's run, bench/traffic-memory.mjs): the case table's first
 * 10,000 entries live until the switch to the partition files, the summarizer's batches and each
 * writer's rows survive a scavenge or two, and so they reach the old generation, which V8 lets grow
 * to several times what is live before it collects it. The old generation grew 30 → 53 MB and the
 * process's RSS peaked in the report phase, 20–40 MB over the run's. A full collection at the end of
 * each step (the summarizer's pass every SAMPLES_PER_COLLECTION results, its finish, each file)
 * costs 5–15 ms on that live set and keeps the peak at the run's: nothing of a finished step is
 * live. Only a process that opted in collects: a library user's heap is theirs.
 */
export const SAMPLES_PER_COLLECTION = 10_000;

let collect: (() => void) | null = null;

/** Opts this process in: every `collectBetweenSteps()` from now on is a full collection. */
export function collectReportSteps(): void {
  if (collect) return;
  // V8 exposes gc() to contexts made after the flag is set; the main context's global stays as it was.
  setFlagsFromString('--expose-gc');
  collect = runInNewContext('gc') as () => void;
}

/** The end of a report step: a full collection when the process opted in, else nothing. */
export function collectBetweenSteps(): void {
  collect?.();
}
