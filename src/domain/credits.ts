// summary.json `credits`: the shapes credits/ computes (run-credits.ts, reconcile.ts, budget-readout.ts),
// here so that domain/summary.ts names them without importing credits/.

export interface CreditStats {
  /** Requests whose credits are known. */
  requests: number;
  sum: number;
  mean: number | null;
  /** Sample standard deviation of one request's credits. */
  sd: number | null;
}

export interface ModelCredits extends CreditStats {
  passed: number;
  /** sum / passed answers: what one passing answer costs. */
  per_passed: number | null;
}

/**
 * The account's balance at the end of the run. `reported`: the lowest credits_remaining an answer
 * reported, with nothing spent after it; `derived`: that balance less what answers reporting none
 * spent after it; `unknown`: no answer reported one (`detail` says why).
 */
export interface RemainingReadout {
  credits: number | null;
  source: 'reported' | 'derived' | 'unknown';
  detail: string;
}

export interface CreditsSummary {
  models: Record<string, ModelCredits>;
  /** `case` for one-time cases, `turn 1`, `turn 2`… for thread turn positions (history grows with the turn). */
  turns: Record<string, CreditStats>;
  per_passed: number | null;
  remaining: RemainingReadout;
  /** The balance as answers reported it, in time order (at most MAX_TRACE points, evenly thinned). */
  remaining_over_run: { offset_ms: number; credits: number }[];
  reconciliation: ReconciliationFindings;
  /** With --credit-price: the spend in money (null otherwise). */
  money: CreditsMoney | null;
  /** --reuse-answers: what the reused answers cost when they were asked (not spent by this run). */
  saved?: number;
  /** With --max-credits or --min-remaining: the limits and how far the spend passed them (credits/budget-readout.ts). */
  budget?: BudgetReadout;
}

export interface CreditsMoney {
  credit_price: number;
  currency: string | null;
  total: number;
  models: Record<string, number>;
  per_passed: number | null;
  remaining: number | null;
}

export interface ReconciliationGap {
  /** The answer reporting the higher balance, and the one reporting the next lower. */
  after_item: string;
  before_item: string;
  from_remaining: number;
  to_remaining: number;
  /** What the lower answer said it cost. */
  expected: number;
  /** The step down minus `expected`: positive is spend the run did not make; negative, a misreport. */
  amount: number;
}

export interface ReconciliationFindings {
  /** Answers that reported both credits_used and credits_remaining. */
  answers: number;
  start_remaining: number | null;
  end_remaining: number | null;
  /** The sum of every gap, less what the run's judges spent (they report no balance). */
  unexplained: number;
  /** Credits the run's checks (judges) spent: charged to the account between answers. */
  check_credits: number;
  /** The largest gaps (by size), at most MAX_GAPS; `gaps_left_out` counts the rest. */
  gaps: ReconciliationGap[];
  gaps_left_out: number;
}

export interface BudgetReadout {
  /** --max-credits (null when not given). */
  max_credits: number | null;
  /** --min-remaining (null when not given). */
  min_remaining: number | null;
  /** Credits spent (known costs, every segment of the run). */
  spent: number;
  /** spent - max_credits when positive, else 0: what the guard let pass (docs/credits.md says when it can). */
  overshoot: number;
  /** The balance at the end as summary.json `credits.remaining` reads it (null when none was reported). */
  remaining: number | null;
  /** min_remaining - remaining when positive, else 0. */
  below_min_remaining: number;
}
