// A sweep's rates, judged (GuideLLM's sweep profile): each rate is one stage of the run, so its
// figures are the stage table's (load-stages.ts, the one owner); this module adds what only the
// result lines can tell, each rate's SLO verdict through the thresholds path (answer quality
// included: pass_rate SLOs), and the highest rate that met every SLO.
import { createThresholdSinks, type ThresholdSinks } from './thresholds-sinks.js';
import type { StageSummary, SweepPlan } from '../domain/load.js';
import type { ThresholdResult } from '../domain/run.js';
import type { Sample } from '../domain/sample.js';
import type { SweepRateSummary, SweepSummary } from '../domain/summary.js';
import { rateIndexOf, type StageWindow } from './stage-window.js';

export { rateIndexOf };
import { LATE_START_MS } from './summarizer.js';

export interface SweepJudge {
  /** Each result line of the run (warmup and probe lines are left out here). */
  add(sample: Sample): void;
  /** Folds the stage table (summary.json `stages`, in the rates' order) with the SLO verdicts. */
  finish(stages: readonly StageSummary[] | null): SweepSummary;
}

export function createSweepJudge(plan: SweepPlan, stages: readonly StageWindow[]): SweepJudge {
  const sinks: ThresholdSinks[] = stages.map(() => createThresholdSinks(plan.slo));
  const answered = stages.map(() => 0);
  const late = stages.map(() => 0);
  const definitions = Object.entries(plan.slo).flatMap(([key, list]) => list.map((expression) => `${key}=${expression}`));
  return {
    add(sample) {
      if (sample.warmup === true || sample.outcome === 'skipped') return;
      const i = rateIndexOf(stages, sample);
      if (i < 0) return;
      sinks[i]!.add(sample);
      answered[i]! += 1;
      if ((sample.scheduled_delay_ms ?? 0) > LATE_START_MS) late[i]! += 1;
    },
    finish(stageSummaries) {
      const results = sinks.map((s) => s.evaluate());
      const rates = plan.rates.map((target, i) => ({
        ...rateSummary(i, target, stageSummaries?.[i] ?? null, results[i] ?? [], definitions.length > 0, answered[i] ?? 0), dropped_late: late[i] ?? 0,
      }));
      const max = sloMaxRate(rates);
      return {
        probes: {
          sequential_rate: plan.probes.sequential.rate_per_s, saturation_rate: plan.probes.saturation.rate_per_s,
          sequential: plan.probes.sequential, saturation: plan.probes.saturation,
        },
        rate_ms: plan.rate_ms,
        rates,
        slo: definitions,
        slo_results: results,
        slo_max_rate: max?.achieved_rate ?? null,
        slo_max_target_rate: max?.target_rate ?? null,
        // Every rate met every SLO: the highest is only a lower bound, the limit lies above it.
        slo_max_rate_is_lower_bound: max !== null && rates.every((r) => r.slo_pass === true),
        dropped_gated: gatedDrops(rates, max),
      };
    },
  };
}

function rateSummary(index: number, target: number, stage: StageSummary | null, slo: ThresholdResult[], judged: boolean, answered: number): SweepRateSummary {
  const failed = slo.filter((r) => !r.pass).map((r) => `${r.metric}=${r.expression}`);
  return {
    index, target_rate: target,
    achieved_rate: stage?.achieved_rate ?? null, starts: stage?.starts ?? 0, dropped: stage?.dropped ?? 0, requests: stage?.requests ?? 0,
    ttfc_ms: stage?.ttfc_ms ?? null, latency_ms: stage?.latency_ms ?? null, corrected_latency_ms: stage?.corrected_latency_ms ?? null,
    inter_chunk_ms: stage?.inter_chunk_ms ?? null, output_chars_per_s: stage?.output_chars_per_s ?? null,
    error_rate: stage?.error_rate ?? null, pass_rate: stage?.pass_rate ?? null,
    throughput: stage?.throughput ?? null, goodput: stage?.goodput ?? null,
    slo_pass: judged ? answered > 0 && failed.length === 0 : null,
    slo_failed: failed,
  };
}

/**
 * The starts a sweep's `dropped` gate judges: those dropped in the rates its answer rests on, at or
 * below the target of slo_max_rate's rate. A rate there that was not delivered as planned makes the
 * answer a claim about load that was never offered. Rates above it probe past capacity by design:
 * their drops are reported, not failed; with no rate named (no --slo, or none met) there is no claim.
 */
export function gatedDrops(rates: readonly SweepRateSummary[], max: SweepRateSummary | null): number {
  if (max === null) return 0;
  return rates.filter((r) => r.target_rate <= max.target_rate).reduce((sum, r) => sum + r.dropped + (r.dropped_late ?? 0), 0);
}

/** The rate with the highest achieved rate among those that met every SLO; null when none did. */
export function sloMaxRate(rates: readonly SweepRateSummary[]): SweepRateSummary | null {
  let best: SweepRateSummary | null = null;
  for (const r of rates) {
    if (r.slo_pass !== true || r.achieved_rate === null) continue;
    if (best === null || r.achieved_rate > best.achieved_rate!) best = r;
  }
  return best;
}

/**
 * What a sweep's verdict gates: the failed checks (errors and 429s included) of the rates its answer
 * rests on, at or below slo_max_rate's target, as a normal run's; those of the rates above it probe
 * past capacity by design and are reported, not failed (as their drops are). Results are put in
 * their rate by rateIndexOf (the checks gate's partition); those before the first rate are gated. With SLOs and no rate meeting them, there is no answer: `noSloRate`.
 */
export function sweepGating(sweep: SweepSummary): { gated: (rate: number) => boolean; noSloRate: boolean } {
  const maxTarget = sweep.slo_max_target_rate;
  return {
    gated: (rate) => rate < 0 || (maxTarget !== null && (sweep.rates[rate]?.target_rate ?? Infinity) <= maxTarget),
    noSloRate: sweep.slo.length > 0 && sweep.slo_max_rate === null,
  };
}
