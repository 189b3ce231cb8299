// Streaming statistics of a set of requests (one model's, or the whole run's): counters plus HDR histograms.
import type { Sample } from '../domain/sample.js';
import { TIMING_METRICS, type RequestStats, type TimingMetric, type TimingPercentiles } from '../domain/summary.js';
import { checkCreditUnits, fromUnits, toUnits } from '../credits/units.js';
import { createCreditDistribution } from './credit-distribution.js';
import { createHistogram, createTally, percentilesMs, recordMs, timingReadout, type ExactTally, type Histogram, type MetricReadout } from './histogram.js';
import { getOwn, setOwn } from './own-record.js';

export interface RequestStatsAccumulator {
  add(sample: Sample): void;
  readonly histograms: Map<TimingMetric, Histogram>;
  toStats(): RequestStats;
  /** The counters thresholds read, without computing every percentile as toStats does. */
  counts(): RequestCounts;
  /** One timing, exact count/sum/min/max/mean beside HDR percentiles; null when none was recorded (or not kept). */
  timing(metric: TimingMetric): MetricReadout | null;
  /** Credits per request (answer plus checks) over requests whose credits are known or whose checks spent some. */
  credits(): MetricReadout | null;
}

export interface RequestCounts {
  /** Sent requests (skipped turns are not requests). */
  requests: number;
  errors: number;
  skipped: number;
  passed: number;
  /** Sent requests with a check not judged and none failed: out of pass rates. */
  notJudged: number;
  /** Answers taken from earlier runs (--reuse-answers) whose timings were left out of this run's. */
  reusedApart: number;
  /** summary.json's credits_per_request: everything spent over the requests whose credits are known. */
  creditsPerRequest: number | null;
}

export interface RequestStatsOptions {
  /** Which timings get a histogram (each is ~95 KB); all by default. Others read as null. */
  timings?: readonly TimingMetric[];
  /**
   * Whose timings are recorded: answers (outcome ok), as summary.json; or every sent request, for a
   * threshold whose scope names an outcome (`latency_ms{outcome:timeout}` judges timeouts' times).
   */
  timingsOf?: 'answers' | 'every-outcome';
}

interface Counters {
  requests: number;
  ok: number;
  errors: number;
  skipped: number;
  passed: number;
  notJudged: number;
  reusedApart: number;
  graderUnits: number;
  graderTokens: number;
  retries: number;
  chars: number;
  streamedChars: number;
  streamedMs: number;
  /** Credits in integer 1e-5 units (the service's precision): a float sum of 100,000 answers drifts. */
  answerUnits: number;
  checkUnits: number;
  creditsKnown: number;
  creditsUnknown: number;
  /** Failed requests the service may have charged (the answer had begun, or a timeout), and those it did not. */
  failedMaybeCharged: number;
  failedNotCharged: number;
  creditsRemaining: number | null;
}

/** The kind an error is counted under: its stable code, else the outcome. */
export function errorKindOf(sample: Sample): string {
  return sample.error?.code ?? sample.outcome;
}

/**
 * Whether the service may have charged a failed request: its answer had begun (a 2xx, or chunks,
 * then a cut stream) or it timed out (the service may still be answering). A refusal before any
 * answer (429, 4xx, 5xx) or a connection that never got a response is not charged.
 */
export function mayHaveBeenCharged(sample: Pick<Sample, 'outcome' | 'status' | 'chunks'> & { error?: Sample['error'] }): boolean {
  // An answer whose headers were too large to read still arrived; one cut at the graceful stop
  // was with the service, which may be answering (and charging) still.
  if (sample.outcome === 'timeout' || sample.outcome === 'interrupted' || sample.error?.code === 'E_HEADERS_OVERFLOW') return true;
  return sample.chunks > 0 || (sample.status !== null && sample.status >= 200 && sample.status < 300);
}

export function isRequestError(sample: Sample): boolean {
  return sample.outcome !== 'ok' && sample.outcome !== 'skipped';
}


function ratio(numerator: number, denominator: number): number | null {
  return denominator > 0 ? numerator / denominator : null;
}

export function createRequestStats(options: RequestStatsOptions = {}): RequestStatsAccumulator {
  const c: Counters = {
    requests: 0, ok: 0, errors: 0, skipped: 0, passed: 0, notJudged: 0, reusedApart: 0, graderUnits: 0, graderTokens: 0, retries: 0, chars: 0, streamedChars: 0,
    streamedMs: 0, answerUnits: 0, checkUnits: 0, creditsKnown: 0, creditsUnknown: 0, failedMaybeCharged: 0, failedNotCharged: 0, creditsRemaining: null,
  };
  const errorsByKind: Record<string, number> = {};
  const kept = options.timings ?? TIMING_METRICS;
  const histograms = new Map<TimingMetric, Histogram>(kept.map((m) => [m, createHistogram()]));
  const tallies = new Map<TimingMetric, ExactTally>(kept.map((m) => [m, createTally()]));
  const creditDistribution = createCreditDistribution();
  const everyOutcome = options.timingsOf === 'every-outcome';

  const add = (sample: Sample): void => {
    // A skipped turn was never sent: it costs nothing and has no timings.
    if (sample.outcome === 'skipped') {
      c.skipped++;
      return;
    }
    c.requests++;
    if (sample.outcome === 'ok') c.ok++;
    else {
      c.errors++;
      const kind = errorKindOf(sample);
      setOwn(errorsByKind, kind, (getOwn(errorsByKind, kind) ?? 0) + 1);
    }
    if (sample.pass) c.passed++;
    else if (sample.not_judged !== undefined) c.notJudged++;
    if (sample.reused_latency_ms !== undefined) c.reusedApart++;
    addGrading(c, sample);
    c.retries += Math.max(0, sample.attempts - 1);
    addChars(c, sample);
    addCredits(c, sample);
    // The same requests thresholds' credits_used counts: those with something known about their cost.
    const checkUnits = checkCreditUnits(sample.checks);
    if (sample.credits_used !== null || checkUnits > 0) creditDistribution.recordUnits(toUnits(sample.credits_used ?? 0) + checkUnits);
    // Timings describe answers: a refused or broken request's duration would mix two populations.
    if (sample.outcome === 'ok' || everyOutcome) recordTimings(histograms, tallies, sample);
  };

  const at = (m: TimingMetric): TimingPercentiles | null => {
    const histogram = histograms.get(m);
    return histogram ? percentilesMs(histogram, tallies.get(m)) : null;
  };
  const toStats = (): RequestStats => statsOf(c, errorsByKind, at);
  const counts = (): RequestCounts => ({
    requests: c.requests, errors: c.errors, skipped: c.skipped, passed: c.passed, notJudged: c.notJudged, reusedApart: c.reusedApart,
    creditsPerRequest: ratio(fromUnits(c.answerUnits + c.checkUnits), c.creditsKnown),
  });
  const timing = (m: TimingMetric): MetricReadout | null => {
    const histogram = histograms.get(m);
    const tally = tallies.get(m);
    return histogram && tally ? timingReadout(histogram, tally) : null;
  };

  return { add, histograms, toStats, counts, timing, credits: creditDistribution.readout };
}

function statsOf(c: Counters, errorsByKind: Record<string, number>, at: (m: TimingMetric) => TimingPercentiles | null): RequestStats {
  const creditsUsed = fromUnits(c.answerUnits + c.checkUnits);
  return {
    requests: c.requests,
    ok: c.ok,
    errors: c.errors,
    skipped: c.skipped,
    passed: c.passed,
    failed: c.requests - c.passed - c.notJudged,
    not_judged: c.notJudged,
    pass_rate: ratio(c.passed, c.requests - c.notJudged),
    errors_by_kind: { ...errorsByKind },
    retries: c.retries,
    chars: c.chars,
    chars_per_s: c.streamedMs > 0 ? Math.round((c.streamedChars / c.streamedMs) * 1000 * 10) / 10 : null,
    credits_used: creditsUsed,
    check_credits_used: fromUnits(c.checkUnits),
    grader_credits_used: fromUnits(c.graderUnits),
    answer_credits_used: fromUnits(c.answerUnits),
    grader_tokens: c.graderTokens,
    credits_unknown: c.creditsUnknown,
    failed_requests_credits: { may_be_charged: c.failedMaybeCharged, not_charged: c.failedNotCharged },
    credits_per_request: ratio(creditsUsed, c.creditsKnown),
    credits_per_passed: ratio(creditsUsed, c.passed),
    credits_remaining: c.creditsRemaining,
    ttfc_ms: at('ttfc_ms'),
    latency_ms: at('latency_ms'),
    ttfb_ms: at('ttfb_ms'),
    gap_max_ms: at('gap_max_ms'),
    corrected_latency_ms: at('corrected_latency_ms'),
  };
}

/** What the graders spent: credits of grader chats of the service, tokens of outside graders. */
function addGrading(c: Counters, sample: Sample): void {
  for (const check of sample.checks) {
    if (check.grader === undefined) continue;
    c.graderUnits += toUnits(check.credits_used ?? 0);
    c.graderTokens += check.grader_tokens ?? 0;
  }
}

function addChars(c: Counters, sample: Sample): void {
  c.chars += sample.chars;
  // Streaming speed: characters over the first-to-last-chunk window; a JSON answer has no window.
  // Answers only, as every timing here: a stream cut midway would mix in a second population.
  const { ttfc_ms: first, last_chunk_ms: last } = sample;
  if (sample.outcome === 'ok' && first !== null && last !== null && last > first) {
    c.streamedChars += sample.chars;
    c.streamedMs += last - first;
  }
}

function addCredits(c: Counters, sample: Sample): void {
  if (sample.credits_used !== null) {
    c.answerUnits += toUnits(sample.credits_used);
    c.creditsKnown++;
  }
  // Unknown credits are answers that arrived without a usage report; a failed request is not an answer.
  if (sample.outcome === 'ok') {
    if (sample.credits_used === null) c.creditsUnknown++;
  } else if (sample.credits_used === null) {
    if (mayHaveBeenCharged(sample)) c.failedMaybeCharged++;
    else c.failedNotCharged++;
  }
  c.checkUnits += checkCreditUnits(sample.checks);
  if (sample.credits_remaining !== null) c.creditsRemaining = sample.credits_remaining;
}

function recordTimings(histograms: Map<TimingMetric, Histogram>, tallies: Map<TimingMetric, ExactTally>, sample: Sample): void {
  for (const [metric, histogram] of histograms) recordMs(histogram, sample[metric], tallies.get(metric));
}
