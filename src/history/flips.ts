// Each question's outcome across runs: the runs where it flipped, and whether that is a change
// (one flip: regressed or fixed) or flakiness (back and forth, or repeats disagreeing within a run).
import type { HistoryFlip, RunRecord } from './types.js';

interface Track {
  last: boolean | null;
  runs: Array<{ run_id: string; passed: boolean }>;
  flakyWithin: boolean;
}

export function flipsOf(suite: string, runs: readonly RunRecord[], keys: readonly string[]): HistoryFlip[] {
  const out: HistoryFlip[] = [];
  const models = [...new Set(runs.flatMap((run) => [...run.questions.keys()]))].sort();
  for (const model of models) {
    const tracks = new Map<number, Track>();
    for (const run of runs) {
      const outcomes = run.questions.get(model);
      if (!outcomes) continue;
      for (let i = 0; i < outcomes.question.length; i++) {
        const requests = outcomes.requests[i]!;
        if (!(requests > 0)) continue;
        const q = outcomes.question[i]!;
        // A question passed in a run when every judged request of it passed (or its repeat_pass k of n).
        const passed = outcomes.passed[i]! >= Math.min(requests, outcomes.need[i]!);
        const track = tracks.get(q) ?? tracks.set(q, { last: null, runs: [], flakyWithin: false }).get(q)!;
        if (track.last !== null && track.last !== passed) track.runs.push({ run_id: run.runId, passed });
        track.last = passed;
      }
      for (const q of outcomes.flakyWithin ?? []) {
        const track = tracks.get(q);
        if (track) track.flakyWithin = true;
      }
    }
    const entries = [...tracks.entries()].filter(([, t]) => t.runs.length > 0 || t.flakyWithin).sort(([a], [b]) => (keys[a]! < keys[b]! ? -1 : 1));
    for (const [q, track] of entries) {
      const kind = track.runs.length >= 2 || track.flakyWithin ? 'flaky' : track.runs[0]!.passed ? 'fixed' : 'regressed';
      out.push({ suite, model, item: keys[q]!, runs: track.runs, kind });
    }
  }
  return out;
}
