// Answers a run took from earlier runs (--reuse-answers): counted apart, with what they cost and took when they were asked.
import { fromUnits, toUnits } from '../credits/units.js';
import type { Sample } from '../domain/sample.js';
import type { ReusedSummary } from '../domain/summary.js';
import { createHistogram, createTally, percentilesMs, recordMs } from './histogram.js';

export interface ReusedAnswers {
  add(sample: Sample): void;
  /** Null when the run reused nothing. */
  result(): ReusedSummary | null;
}

/** Their recorded timings go to histograms of their own: this run's timing statistics never see them. */
export function createReusedAnswers(): ReusedAnswers {
  let answers = 0;
  let savedUnits = 0;
  let savedUnknown = 0;
  const sources = new Set<string>();
  const ttfc = { histogram: createHistogram(), tally: createTally() };
  const latency = { histogram: createHistogram(), tally: createTally() };
  return {
    add(sample) {
      if (sample.credits_saved === undefined || sample.reused_from === undefined) return;
      answers += 1;
      sources.add(sample.reused_from);
      if (sample.credits_saved === null) savedUnknown += 1;
      else savedUnits += toUnits(sample.credits_saved);
      recordMs(ttfc.histogram, sample.reused_ttfc_ms, ttfc.tally);
      recordMs(latency.histogram, sample.reused_latency_ms, latency.tally);
    },
    result() {
      if (answers === 0) return null;
      return {
        answers, from: [...sources].sort(), credits_saved: fromUnits(savedUnits), credits_saved_unknown: savedUnknown,
        ttfc_ms: percentilesMs(ttfc.histogram, ttfc.tally), latency_ms: percentilesMs(latency.histogram, latency.tally),
      };
    },
  };
}


/** Whether the reused answers' timings were left out of this run's (--reuse-answers), not kept in them (regrade). */
export const reusedTimingsApart = (r: ReusedSummary): boolean => r.latency_ms !== null || r.ttfc_ms !== null;
