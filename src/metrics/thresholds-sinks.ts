// Threshold sinks (k6): one accumulator per distinct scope, fed sample by sample, judged on demand (live or at the end).
import type { ThresholdResult } from '../domain/run.js';
import type { Sample } from '../domain/sample.js';
import type { TimingMetric } from '../domain/summary.js';
import { createRequestStats, type RequestStatsAccumulator } from './request-stats.js';
import type { ParsedThreshold } from './threshold-parser.js';
import { judgeThreshold, validateThresholds, type ThresholdAggregates } from './thresholds.js';
import { matchesTags, namesOutcome, scopeKeyOf, summaryScopeOf } from './thresholds-scope.js';

export interface ThresholdSinks {
  /** The thresholds, parsed, in the order they were defined. */
  readonly parsed: readonly ParsedThreshold[];
  /** Feeds one result line to every sink whose scope it matches (shared accumulators are fed by their owner). */
  add(sample: Sample): void;
  /** Judges every threshold on what has been added so far; cheap enough to call every second. `run`: what only the finished run knows. */
  evaluate(run?: { dropped: { count: number; planned: number } }): ThresholdResult[];
  /**
   * Whether a `pass_rate` threshold's scope holds this sample: its failed checks are then judged
   * through that threshold (k6), not one by one by the `checks` gate.
   */
  coveredByPassRate(sample: Sample): boolean;
}

/**
 * Accumulators someone else already feeds every sample to: the summarizer's run total and per-model
 * ones. Unscoped and model-only thresholds read them, so they judge the very numbers summary.json
 * writes (k6: thresholds read the summary's aggregates) and nothing is counted twice.
 */
export interface SharedStats {
  total: RequestStatsAccumulator;
  /** undefined for a model that has no sample (yet). */
  model(name: string): RequestStatsAccumulator | undefined;
}

interface Sink {
  scope: Readonly<Record<string, string>>;
  /** null when it reads a shared accumulator instead of keeping its own. */
  own: RequestStatsAccumulator | null;
  read(): RequestStatsAccumulator | undefined;
}

const TIMING_OF: Partial<Record<ParsedThreshold['metric'], TimingMetric>> = {
  ttfc_ms: 'ttfc_ms',
  latency_ms: 'latency_ms',
  ttfb_ms: 'ttfb_ms',
  corrected_latency_ms: 'corrected_latency_ms',
};

/** The histograms a scope's thresholds read (each is ~95 KB: a sink keeps only those). */
function timingsNeeded(thresholds: readonly ParsedThreshold[]): TimingMetric[] {
  const needed = new Set<TimingMetric>();
  for (const t of thresholds) {
    const timing = TIMING_OF[t.metric];
    if (timing !== undefined) needed.add(timing);
  }
  return [...needed];
}

function aggregatesOf(stats: RequestStatsAccumulator | undefined, scope: Readonly<Record<string, string>>): ThresholdAggregates {
  if (stats === undefined) {
    return { requests: 0, errors: 0, passed: 0, timing: () => null, credits: () => null, creditsPerRequest: null };
  }
  const counts = stats.counts();
  // A skipped turn was never sent; only a scope naming an outcome (`{outcome:skipped}`) counts it.
  const skipped = namesOutcome(scope) ? counts.skipped : 0;
  return {
    requests: counts.requests + skipped,
    errors: counts.errors + skipped,
    passed: counts.passed,
    notJudged: counts.notJudged,
    reusedApart: counts.reusedApart,
    timing: (metric) => stats.timing(metric),
    credits: () => stats.credits(),
    creditsPerRequest: counts.creditsPerRequest,
  };
}

export function createThresholdSinks(definitions: Record<string, readonly string[]>, shared?: SharedStats): ThresholdSinks {
  const parsed = validateThresholds(definitions);
  const byScope = new Map<string, ParsedThreshold[]>();
  for (const t of parsed) {
    const key = scopeKeyOf(t.scope);
    byScope.set(key, [...(byScope.get(key) ?? []), t]);
  }
  const sinks = new Map<string, Sink>();
  for (const [key, thresholds] of byScope) {
    const scope = thresholds[0]!.scope;
    const summaryScope = shared ? summaryScopeOf(scope) : null;
    if (shared && summaryScope) {
      const { model } = summaryScope;
      sinks.set(key, { scope, own: null, read: () => (model === null ? shared.total : shared.model(model)) });
      continue;
    }
    const own = createRequestStats({ timings: timingsNeeded(thresholds), timingsOf: namesOutcome(scope) ? 'every-outcome' : 'answers' });
    sinks.set(key, { scope, own, read: () => own });
  }
  const owned = [...sinks.values()].filter((s): s is Sink & { own: RequestStatsAccumulator } => s.own !== null);

  const add = (sample: Sample): void => {
    for (const sink of owned) if (matchesTags(sample, sink.scope)) sink.own.add(sample);
  };

  const evaluate = (run?: { dropped: { count: number; planned: number } }): ThresholdResult[] => {
    const aggregates = new Map<string, ThresholdAggregates>();
    return parsed.map((t) => {
      const key = scopeKeyOf(t.scope);
      let scoped = aggregates.get(key);
      if (scoped === undefined) {
        const sink = sinks.get(key)!;
        scoped = aggregatesOf(sink.read(), sink.scope);
        if (run) scoped.dropped = run.dropped;
        aggregates.set(key, scoped);
      }
      return judgeThreshold(t, scoped);
    });
  };

  const passRateScopes = [...new Map(parsed.filter((t) => t.metric === 'pass_rate').map((t) => [scopeKeyOf(t.scope), t.scope])).values()];
  const coveredByPassRate = (sample: Sample): boolean => passRateScopes.some((scope) => matchesTags(sample, scope));

  return { parsed, add, evaluate, coveredByPassRate };
}
