// A run's stop conditions, judged as results arrive: --max-errors, --max-error-rate over a sliding
// window, thresholds with abortOnFail (k6), evaluated live on running aggregates of their own, and
// always an unreachable target: a window whose every result failed to connect (nothing more to learn).
import type { ThresholdAbort } from '../domain/suite.js';
import { createThresholdSinks, type ThresholdSinks } from '../metrics/thresholds-sinks.js';
import type { Sample } from '../domain/sample.js';
import type { AbortBy } from '../runner/index.js';

export interface StopConditionOptions {
  maxErrors?: number;
  maxErrorRate?: number;
  errorWindowMs?: number;
  thresholdAborts: readonly ThresholdAbort[];
}

export interface StopDecision {
  by: AbortBy;
  detail: string;
}

export const DEFAULT_ERROR_WINDOW_MS = 10_000;
/** A rate over fewer results is noise (one error in two is not a 50% error rate worth stopping for). */
export const MIN_WINDOW_RESULTS = 10;
/** Thresholds are judged at most this often (k6 judges every 2 s); percentiles are not free. */
const THRESHOLD_EVERY_MS = 250;

export interface StopConditions {
  /** Feeds one recorded result; returns a decision the first time a condition is met, else null. */
  observe(sample: Sample, nowMs: number): StopDecision | null;
}

const isError = (s: Sample): boolean => s.outcome !== 'ok' && s.outcome !== 'skipped';
/** No connection, no answer: the target is not there (a cut stream, after an answer began, is not this). */
const failedToConnect = (s: Sample): boolean => s.error?.code === 'E_CONNECTION' && s.status === null && s.chunks === 0;

/**
 * The target is unreachable once every result of a window (at least MIN_WINDOW_RESULTS of them)
 * failed to connect: hammering a dead target with retries to the end tells nothing more.
 */
function createUnreachable(windowMs: number) {
  // O(1): the results since the last one that connected, and when that was (a window holds only
  // failures once the last connection is older than the window).
  let streak = 0;
  let lastConnectedMs = -Infinity;
  return (sample: Sample, nowMs: number): StopDecision | null => {
    if (sample.outcome === 'skipped') return null;
    if (!failedToConnect(sample)) {
      streak = 0;
      lastConnectedMs = nowMs;
      return null;
    }
    streak += 1;
    if (streak < MIN_WINDOW_RESULTS || lastConnectedMs >= nowMs - windowMs) return null;
    return { by: 'unreachable', detail: `the target is unreachable: the last ${streak} results failed to connect (E_CONNECTION), none connected in the last ${windowMs / 1000}s` };
  };
}

/** `runStartMs`: the run's t0 on the monotonic clock (delayAbortEval counts from it). */
export function createStopConditions(options: StopConditionOptions, runStartMs: number): StopConditions | null {
  const { maxErrors, maxErrorRate, thresholdAborts } = options;
  const windowMs = options.errorWindowMs ?? DEFAULT_ERROR_WINDOW_MS;
  const unreachable = createUnreachable(windowMs);
  let errors = 0;
  // The window's results as (time, error) pairs, oldest first; a ring would do, the window is short.
  const window: { atMs: number; error: boolean }[] = [];
  let windowErrors = 0;
  const definitions: Record<string, string[]> = {};
  for (const t of thresholdAborts) (definitions[t.key] ??= []).push(t.expression);
  const sinks: ThresholdSinks | null = thresholdAborts.length > 0 ? createThresholdSinks(definitions) : null;
  const delayOf = (key: string, expression: string): number =>
    Math.max(...thresholdAborts.filter((t) => t.key === key && t.expression === expression).map((t) => t.delay_abort_eval_ms));
  let lastJudgedMs = -Infinity;
  let decided = false;

  const errorLimits = (sample: Sample, nowMs: number): StopDecision | null => {
    const error = isError(sample);
    if (error) errors += 1;
    if (maxErrors !== undefined && errors >= maxErrors) return { by: 'max-errors', detail: `${errors} failed requests reached --max-errors ${maxErrors}` };
    if (maxErrorRate === undefined) return null;
    window.push({ atMs: nowMs, error });
    if (error) windowErrors += 1;
    while (window.length > 0 && window[0]!.atMs < nowMs - windowMs) if (window.shift()!.error) windowErrors -= 1;
    const rate = windowErrors / window.length;
    if (window.length >= MIN_WINDOW_RESULTS && rate > maxErrorRate) {
      return { by: 'max-error-rate', detail: `${windowErrors} of the last ${window.length} results failed in ${windowMs / 1000}s (${(rate * 100).toFixed(1)}% > --max-error-rate ${maxErrorRate * 100}%)` };
    }
    return null;
  };

  const thresholds = (sample: Sample, nowMs: number): StopDecision | null => {
    if (sinks === null) return null;
    sinks.add(sample);
    if (nowMs - lastJudgedMs < THRESHOLD_EVERY_MS) return null;
    lastJudgedMs = nowMs;
    const elapsedMs = nowMs - runStartMs;
    const results = sinks.evaluate();
    const i = results.findIndex((r, k) => !r.pass && r.value !== null && elapsedMs >= delayOf(sinks.parsed[k]!.key, sinks.parsed[k]!.expression));
    const failed = results[i];
    if (failed === undefined) return null;
    return { by: 'threshold', detail: `threshold ${failed.metric}: ${failed.expression} failed (value ${failed.value}); it has abortOnFail` };
  };

  return {
    observe(sample, nowMs) {
      if (decided) return null;
      const decision = unreachable(sample, nowMs) ?? errorLimits(sample, nowMs) ?? thresholds(sample, nowMs);
      if (decision) decided = true;
      return decision;
    },
  };
}
