// The shape of a comparison of two runs: what compare.json holds and every compare report reads.
import type { Verdict } from '../domain/summary.js';

import type { Gate } from '../metrics/gates.js';

/** What may fail a comparison (`--fail-on`): the one gate vocabulary; compare judges the comparison's gates of it. */
export { GATES as FAIL_ON_KINDS } from '../metrics/gates.js';
export type FailOnKind = Gate;

/** compare.json's pass_rate: base → head over the matched items (each item's repeats averaged). */
export interface PassRateChange {
  items: number;
  base: number;
  head: number;
  /** head − base. */
  difference: number;
  ci95: [number, number];
  p_value: number;
  method: 'tango-score' | 'cluster-t' | 'sign-test';
  alpha: number;
  tolerance: number;
  /** Significant at alpha and beyond the tolerance; `regressed` fails the `regressions` gate. */
  verdict: 'regressed' | 'improved' | 'no_difference';
}

/** What `--confirm N` found for one stable pass → fail item: its re-asks and their verdict. */
export interface ConfirmFinding {
  item_id: string;
  reasks: number;
  passed: number;
  /** `confirmed`: every re-ask failed too (the regression fails the run); `flaky`: some passed (reported, not a failure). */
  verdict: 'confirmed' | 'flaky';
}

export interface CompareOptions {
  /** A pass-rate drop fails only when significant and larger than this (0.02 = 2 points). */
  tolerance?: number;
  /** A latency rise counts only when the median rose by more than this fraction (0.1 = 10%). */
  latencyTolerance: number;
  /** A credits rise counts only when credits per request rose by more than this fraction. */
  creditsTolerance: number;
  /** Family-wise false-alarm rate of one comparison's significance tests. */
  alpha: number;
  failOn: FailOnKind[];
  /** `--allow-different-suites`: compare runs of differently named suites (else exit 2). */
  allowDifferentSuites?: boolean;
}

/** One side of a matched item: how its repeats went. */
export interface ItemSide {
  /** Requests of this item (its repeats); a skipped turn counts, as a failure. */
  runs: number;
  passed: number;
  /** Majority of the repeats passed (strictly more than half). */
  pass: boolean;
  /** The answer most repeats gave (the first repeat's on a tie), cut to its first 8,000 characters. */
  text: string;
  /** Present when `text` is cut: how much is shown of how many characters (results.ndjson holds it whole). */
  text_cut?: { shown: number; chars: number };
  /** Checks that failed in any repeat, `type: detail`, at most a few. */
  failed_checks: string[];
  /** Request errors (outcome other than ok), e.g. `E_TIMEOUT`. */
  errors: string[];
}

/** One word-level diff run: kept (`=`), removed from the base (`-`) or added in the head (`+`). */
export interface DiffPart {
  op: '=' | '-' | '+';
  text: string;
}

/** Where an item comes from in the suite, so reports can name it as `case × model`. */
export interface ItemRef {
  /** The results' item_id without its `|rN` repeat suffix: one entry per case (or turn) and model. */
  item_id: string;
  /** The raw item_ids (one per repeat) seen on either side. */
  item_ids: string[];
  case_id: string | null;
  thread_id: string | null;
  turn: number | null;
  model: string;
  prompt: string | null;
}

export interface ItemChange extends ItemRef {
  base: ItemSide;
  head: ItemSide;
  /** textSimilarity of the two answers, 1 = same terms. */
  similarity: number;
  /** Word-level diff from the base answer to the head answer; empty when the texts are equal. */
  diff: DiffPart[];
  /**
   * Checks that passed in the base and fail in the head (by majority of the judged repeats), matched
   * by position and type. Any of them makes the item a regression, even when it already failed
   * another check; a check not judged (`pass: null`) is never one.
   */
  newly_failed_checks: CheckRegression[];
}

/** One check of an item that passed in the base and fails in the head. */
export interface CheckRegression {
  /** 1-based position in the item's checks (its assert list). */
  check: number;
  type: string;
  /** The head's failure detail (first failing repeat). */
  detail: string;
}

export interface ItemOnly extends ItemRef {
  side: ItemSide;
}

export interface Percentiles {
  n: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

/** A latency metric of one model: both sides' percentiles, the test and its verdict. */
export interface TimingChange {
  base: Percentiles;
  head: Percentiles;
  /** Relative change of each percentile, head / base − 1. */
  change: { p50: number | null; p95: number | null; p99: number | null };
  test: {
    method: 'mann-whitney-u';
    /** U of the base sample (pairs base > head, ties half); null when a side has too few answers. */
    u: number | null;
    /** Positive when the head tends to be slower. */
    z: number | null;
    /** Two-sided, before adjustment. */
    p_value: number | null;
    /** Holm-adjusted across every latency test of the comparison. */
    p_adjusted: number | null;
    significant: boolean;
  };
  /** Significant and the median rose by more than the tolerance. */
  regression: boolean;
  /** Significant and the median fell by more than the tolerance. */
  improvement: boolean;
}

export interface CreditsChange {
  /** credits_per_request over every request with known credits, as summary.json counts it. */
  base: number | null;
  head: number | null;
  /** Relative change over matched items (same questions on both sides), head / base − 1. */
  change: number | null;
  test: {
    method: 'paired-bootstrap';
    matched_items: number;
    /** Confidence interval (1 − alpha) of the relative change. */
    ci: [number, number] | null;
    significant: boolean;
  };
  regression: boolean;
  improvement: boolean;
}

export interface ModelChange {
  /** On both sides (false: only one run asked this model). */
  matched: boolean;
  pass_rate: { base: number | null; head: number | null; change: number | null };
  requests: { base: number; head: number };
  ttfc_ms: TimingChange;
  latency_ms: TimingChange;
  credits_per_request: CreditsChange;
}

export interface RunRef {
  dir: string;
  run_id: string;
  suite: string;
  status: string;
  started_at: string;
  samples: number;
}

export interface Comparison {
  kind: 'kbbench-compare';
  version: 1;
  verdict: Verdict;
  /** Why the verdict is fail, one line each (empty on pass). */
  reasons: string[];
  base: RunRef;
  head: RunRef;
  options: { latency_tolerance: number; credits_tolerance: number; alpha: number; fail_on: FailOnKind[]; tolerance?: number };
  counts: { matched: number; regressions: number; fixes: number; changed: number; missing: number; added: number; not_compared: number };
  /** Items that passed and now fail, and items with a check that passed and now fails (see newly_failed_checks). */
  regressions: ItemChange[];
  fixes: ItemChange[];
  changed: ItemChange[];
  /** Base items the head planned (or whose case/thread its suite dropped) with no result: the `missing` gate. */
  missing: ItemOnly[];
  /** Never a failure. */
  added: ItemOnly[];
  /** Base items outside what the head planned (a --models subset, another shard): listed, never a failure. */
  not_compared: ItemOnly[];
  models: Record<string, ModelChange>;
  /** The pass rate over matched items, base → head, paired; null with fewer than 3 matched items. */
  pass_rate: PassRateChange | null;
  /** Regressions whose repeats disagreed on either side (flaky): listed, not a failure by themselves. */
  flaky_regressions: string[];
  /** `run --baseline --confirm N`: the re-asks of each stable regression (absent without --confirm). */
  confirm?: { repeats: number; dir: string; items: ConfirmFinding[] };
  /** Notes on what the numbers can and cannot say (partial runs, models on one side only). */
  warnings: string[];
  /** Answers a person labelled in both runs (labels.csv, `kbbench review`) with different verdicts; never a failure. */
  label_changes?: LabelChange[];
}

export interface LabelChange {
  item_id: string;
  base: 'pass' | 'fail';
  head: 'pass' | 'fail';
  base_note: string;
  head_note: string;
}
