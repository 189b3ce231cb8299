// Credit forecasts from a small real sample: a mean cost per fresh question per model, grown per
// turn position for threads, scaled to the planned work, with a Student-t interval.
import { roundCredits, sumCredits } from './units.js';
import { studentTQuantile } from './student-t.js';

/** One sampled request's cost (its answer plus any judge it paid for). */
export interface CostObservation {
  model: string;
  /** The case or thread it belongs to: a thread's turns are one draw from the suite, not several. */
  unit: string;
  /** null for a one-time case; else its 1-based position in the thread. */
  turn: number | null;
  credits: number;
}

/** The requests to forecast for one model: one-time cases, and each conversation's length. */
export interface PlannedWork {
  cases: number;
  threadTurns: number[];
}

export interface ForecastOptions {
  /** Two-sided interval level, e.g. 0.95. */
  level: number;
  /** Forecast this many requests, drawn like the plan's mix of models, cases and turns, instead of the plan. */
  volume?: number;
}

export interface CreditInterval {
  credits: number;
  low: number;
  high: number;
}

export interface ModelForecast extends CreditInterval {
  requests: number;
  credits_per_request: number;
  /** Mean cost of a fresh question: a case, or a thread's first turn. */
  base_credits: number;
  /** Cost of turn k+1 relative to turn 1 (index 0 is turn 1), from the sampled threads. */
  turn_growth: number[];
  sample: { units: number; requests: number; credits: number };
  /** Degrees of freedom of the interval (the pooled ones when the model's own sample had one unit). */
  df: number;
  standard_error: number;
}

export interface Forecast {
  total: CreditInterval & { requests: number };
  models: Record<string, ModelForecast>;
  level: number;
  /** `paired`: models sampled on the same cases, their correlation kept; `bound`: standard errors added (conservative). */
  total_interval: 'paired' | 'bound';
  /** Models with planned work but no usable sampled answer: left out of the total. */
  unestimated: string[];
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

function sampleSd(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
}

/** Forecasts are credit figures: shown to the service's 5 decimals. */
const round5 = roundCredits;

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

/**
 * Growth of a turn's cost with its position: the geometric mean, over sampled threads, of turn k's
 * cost over turn 1's (a ratio within one conversation cancels how dear its topic is). Positions no
 * sampled thread reached are extrapolated on the line through turn 1 and the last one seen: the
 * history a turn carries keeps growing, so assuming it stops would under-forecast long threads.
 */
export function turnGrowth(observations: readonly CostObservation[], maxTurn: number): number[] {
  const logRatios: number[][] = [];
  for (const turns of groupBy(observations.filter((o) => o.turn !== null), (o) => o.unit).values()) {
    const first = turns.find((t) => t.turn === 1);
    if (!first || first.credits <= 0) continue;
    for (const t of turns) if (t.turn! > 1 && t.credits > 0) (logRatios[t.turn! - 1] ??= []).push(Math.log(t.credits / first.credits));
  }
  const growth: number[] = [1];
  let last = 0;
  for (let k = 1; k < maxTurn; k += 1) {
    const logs = logRatios[k];
    growth[k] = logs?.length ? Math.exp(mean(logs)) : Number.NaN;
    if (logs?.length) last = k;
  }
  const slope = last > 0 ? (growth[last]! - 1) / last : 0;
  const floor = Math.min(...growth.filter((g) => Number.isFinite(g)));
  return growth.map((g, k) => (Number.isFinite(g) ? g : Math.max(floor, 1 + slope * k)));
}

/** Each sampled unit's cost of a fresh question: a case's credits, or a thread's turns deflated by their growth. */
export function unitBases(observations: readonly CostObservation[], growth: readonly number[]): Map<string, number> {
  const bases = new Map<string, number>();
  for (const [unit, obs] of groupBy(observations, (o) => o.unit)) {
    const weight = obs.reduce((a, o) => a + (o.turn === null ? 1 : (growth[o.turn - 1] ?? 1)), 0);
    bases.set(unit, obs.reduce((a, o) => a + o.credits, 0) / weight);
  }
  return bases;
}

/** The planned work in fresh-question equivalents: each case counts 1, turn k of a thread its growth. */
export function workWeight(work: PlannedWork, growth: readonly number[]): number {
  let weight = work.cases;
  for (const turns of work.threadTurns) for (let k = 0; k < turns; k += 1) weight += growth[k] ?? growth.at(-1) ?? 1;
  return weight;
}

const requestsOf = (work: PlannedWork): number => work.cases + work.threadTurns.reduce((a, b) => a + b, 0);

interface ModelFit {
  model: string;
  bases: Map<string, number>;
  growth: number[];
  /** Credits forecast per unit of base cost: work weight × volume scale. */
  factor: number;
  requests: number;
  cv: number | null;
  sample: ModelForecast['sample'];
}

function fitModel(model: string, work: PlannedWork, observations: CostObservation[], scale: number): ModelFit {
  const maxTurn = Math.max(1, ...work.threadTurns, ...observations.map((o) => o.turn ?? 1));
  const growth = turnGrowth(observations, maxTurn);
  const bases = unitBases(observations, growth);
  const values = [...bases.values()];
  const m = mean(values);
  const sample = { units: bases.size, requests: observations.length, credits: sumCredits(observations.map((o) => o.credits)) };
  const cv = values.length >= 2 && m > 0 ? sampleSd(values) / m : values.length >= 2 ? 0 : null;
  return { model, bases, growth, factor: workWeight(work, growth) * scale, requests: requestsOf(work) * scale, cv, sample };
}

/** The spread of models sampled too thinly (one unit) is borrowed from the others, as a relative spread. */
function pooledCv(fits: readonly ModelFit[]): { cv: number; df: number } {
  let sum = 0;
  let df = 0;
  for (const f of fits) {
    if (f.cv === null) continue;
    sum += (f.bases.size - 1) * f.cv ** 2;
    df += f.bases.size - 1;
  }
  // Nothing to borrow from: a spread as large as the mean, on one degree of freedom (very wide, by design).
  return df > 0 ? { cv: Math.sqrt(sum / df), df } : { cv: 1, df: 1 };
}

function interval(credits: number, se: number, df: number, level: number): CreditInterval {
  const t = studentTQuantile((1 + level) / 2, df);
  return { credits: round5(credits), low: round5(Math.max(0, credits - t * se)), high: round5(credits + t * se) };
}

/** Forecasting N fresh requests adds their own spread (N·σ²) to the uncertainty of the mean (N²·σ²/n). */
const inflation = (options: ForecastOptions, n: number, count: number): number => (options.volume !== undefined && count > 0 ? 1 + n / count : 1);

function modelSe(fit: ModelFit, pooled: { cv: number }, options: ForecastOptions): number {
  const n = fit.bases.size;
  const sd = (fit.cv ?? pooled.cv) * mean([...fit.bases.values()]);
  return fit.factor * (sd / Math.sqrt(n)) * Math.sqrt(inflation(options, n, fit.requests));
}

function modelForecast(fit: ModelFit, pooled: { cv: number; df: number }, options: ForecastOptions): ModelForecast {
  const base = mean([...fit.bases.values()]);
  const credits = base * fit.factor;
  const se = modelSe(fit, pooled, options);
  const df = fit.cv !== null ? fit.bases.size - 1 : pooled.df;
  return {
    ...interval(credits, se, df, options.level),
    requests: round5(fit.requests),
    credits_per_request: fit.requests > 0 ? round5(credits / fit.requests) : 0,
    base_credits: round5(base),
    turn_growth: fit.growth.map((g) => Math.round(g * 10_000) / 10_000),
    sample: fit.sample,
    df,
    standard_error: round5(se),
  };
}

/** Same sampled units on every model: the total's spread comes from per-unit sums, correlation included. */
function pairedTotal(fits: readonly ModelFit[], options: ForecastOptions): { se: number; df: number } | null {
  const units = [...(fits[0]?.bases.keys() ?? [])].sort();
  const same = (f: ModelFit): boolean => f.bases.size === units.length && units.every((u) => f.bases.has(u));
  if (units.length < 2 || !fits.every(same)) return null;
  const z = units.map((u) => fits.reduce((a, f) => a + f.factor * f.bases.get(u)!, 0));
  const requests = fits.reduce((a, f) => a + f.requests, 0);
  return { se: (sampleSd(z) / Math.sqrt(units.length)) * Math.sqrt(inflation(options, units.length, requests)), df: units.length - 1 };
}

/**
 * Forecast per model and in total. Per model: base = mean fresh-question cost of the sampled units,
 * credits = base × planned work (in fresh-question equivalents), standard error = work × sd/√n.
 * No finite-population correction: a live service's answers differ from run to run, so even the
 * sampled requests will cost differently next time (dropping it adds exactly that re-draw spread).
 */
export function forecastCredits(planned: Record<string, PlannedWork>, observations: readonly CostObservation[], options: ForecastOptions): Forecast {
  const byModel = groupBy(observations, (o) => o.model);
  const plannedRequests = Object.values(planned).reduce((a, w) => a + requestsOf(w), 0);
  const scale = options.volume !== undefined && plannedRequests > 0 ? options.volume / plannedRequests : 1;
  const fits: ModelFit[] = [];
  const unestimated: string[] = [];
  for (const [model, work] of Object.entries(planned)) {
    if (requestsOf(work) === 0) continue;
    const seen = byModel.get(model) ?? [];
    if (seen.length === 0) unestimated.push(model);
    else fits.push(fitModel(model, work, seen, scale));
  }
  const pooled = pooledCv(fits);
  const models: Record<string, ModelForecast> = {};
  for (const fit of fits) models[fit.model] = modelForecast(fit, pooled, options);
  const list = Object.values(models);
  const credits = fits.reduce((a, f) => a + mean([...f.bases.values()]) * f.factor, 0);
  const paired = pairedTotal(fits, options);
  // Unpaired: adding standard errors assumes the models' errors move together, the worst case.
  const se = paired?.se ?? fits.reduce((a, f) => a + modelSe(f, pooled, options), 0);
  const df = paired?.df ?? Math.min(...list.map((m) => m.df), Number.POSITIVE_INFINITY);
  const total = list.length === 0 ? { credits: 0, low: 0, high: 0 } : interval(credits, se, Number.isFinite(df) ? df : 1, options.level);
  return {
    total: { ...total, requests: round5(fits.reduce((a, f) => a + f.requests, 0)) },
    models,
    level: options.level,
    total_interval: paired ? 'paired' : 'bound',
    unestimated,
  };
}
