// Credit forecasts over the suite's distinct items (a case, or a thread turn, on one model): what an
// item costs is known where it was observed, predicted from what is known before sending (its input
// size and turn position) where it was not, and the run's repeats scatter around both.
import { fitLeastSquares, type LeastSquaresFit } from './least-squares.js';
import { linkModels, type BorrowedCost } from './model-ratio.js';
import { newQuestionsSpread, type NewQuestionsSpread } from './new-questions.js';
import { studentTQuantile } from '../stats/student-t.js';
import { roundCredits, sumCredits } from './units.js';

/** One distinct item of the plan: what is known of it before anything is sent. */
export interface PopulationItem {
  model: string;
  /** Case id or thread turn, with a hash of its prompt(s): an edited question is a new item. */
  key: string;
  /** Characters the request carries that are known beforehand: prompt, additional_context and earlier turns' prompts. */
  inputChars: number;
  /** null for a one-time case; else the 1-based turn position. */
  turn: number | null;
  /** How many times the plan sends it (its repeats). */
  repeats: number;
}

/** What one distinct item was seen to cost, over however many repeats were observed (see items.ts ItemCostTally). */
export interface ItemCosts {
  model: string;
  key: string;
  count: number;
  mean: number;
  /** Sum of squared deviations of its repeats from their mean. */
  ss: number;
}

export interface ItemForecastOptions {
  /** Two-sided interval level, e.g. 0.95. */
  level: number;
  /**
   * Forecast this many requests drawn like the suite's mix instead of the plan: per model, that model
   * taking all of them; the total splits them as the plan splits its models.
   */
  volume?: number;
}

export interface CreditInterval {
  credits: number;
  low: number;
  high: number;
}

export interface ItemModelForecast extends CreditInterval {
  requests: number;
  credits_per_request: number;
  /** `regression`: unobserved items predicted from input size and turn; `mean`: from the mean of the observed. */
  estimator: 'regression' | 'mean';
  /** `from_other_models`: items this model was not asked but another was, predicted by the two models' cost ratio. */
  items: { planned: number; observed: number; from_other_models: number };
  /** Whether a repeat's own spread was seen (an item observed twice or more); else no finite-population correction. */
  within_item: { sd: number; observed: boolean };
  sample: { items: number; requests: number; credits: number };
  df: number;
  standard_error: number;
}

export interface ItemForecast {
  total: CreditInterval & { requests: number; label: string };
  models: Record<string, ItemModelForecast>;
  level: number;
  /** `independent`: models' errors added in quadrature (disjoint samples); `bound`: added linearly (conservative). */
  total_interval: 'independent' | 'bound';
  unestimated: string[];
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

interface Observed {
  mean: number;
  count: number;
  /** Sum of squared deviations from the item's mean, over its repeats. */
  ss: number;
}

/** The covariates a forecast uses for an item, by how many items it has to fit them on. */
function covariates(item: PopulationItem, terms: number): number[] {
  const row = [1, item.inputChars, (item.turn ?? 1) - 1];
  return row.slice(0, terms);
}

/**
 * Least squares wants several residual degrees of freedom per slope before a slope helps more than it
 * costs: with fewer items, the plain mean (ratio 1) is the safer predictor.
 */
function termsFor(observed: readonly PopulationItem[]): number {
  const turns = new Set(observed.map((i) => i.turn ?? 1)).size;
  const sizes = new Set(observed.map((i) => i.inputChars)).size;
  if (observed.length >= 10 && turns > 1 && sizes > 1) return 3;
  if (observed.length >= 6 && sizes > 1) return 2;
  return 1;
}

interface ModelFit {
  model: string;
  items: PopulationItem[];
  seen: Map<string, Observed>;
  borrowed: Map<string, BorrowedCost>;
  /** Items the fit stands on that came from other models (their share carries the ratio's error). */
  borrowedInFit: number;
  fitItems: number;
  shapeVar: number;
  fit: LeastSquaresFit;
  terms: number;
  /** Residual variance relative to the squared mean item cost (shared across models when one has few items). */
  relVar: number | null;
  df: number;
  withinVar: number | null;
  withinDf: number;
  meanCost: number;
}

function fitModel(model: string, items: PopulationItem[], costs: Map<string, Observed>, lent: readonly BorrowedCost[], shapeVar: number): ModelFit | null {
  const observedItems = items.filter((i) => costs.has(i.key));
  if (observedItems.length === 0) return null;
  const planned = new Set(items.map((i) => i.key));
  const borrowed = new Map(lent.filter((b) => planned.has(b.key) && !costs.has(b.key)).map((b) => [b.key, b]));
  const fitItems = items.filter((i) => costs.has(i.key) || borrowed.has(i.key));
  const wanted = termsFor(fitItems);
  const xs = fitItems.map((i) => covariates(i, wanted));
  const ys = fitItems.map((i) => costs.get(i.key)?.mean ?? borrowed.get(i.key)!.credits);
  const fit = fitLeastSquares(xs, ys);
  const terms = fit.coefficients.length;
  const meanCost = mean(ys);
  const df = fitItems.length - terms;
  const relVar = df > 0 && meanCost > 0 ? fit.residualSs / df / meanCost ** 2 : df > 0 ? 0 : null;
  let withinSs = 0;
  let withinDf = 0;
  for (const item of observedItems) {
    const o = costs.get(item.key)!;
    withinSs += o.ss;
    withinDf += o.count - 1;
  }
  const withinVar = withinDf > 0 ? withinSs / withinDf : null;
  const borrowedInFit = fitItems.length - observedItems.length;
  return {
    model, items, seen: new Map(observedItems.map((i) => [i.key, costs.get(i.key)!])), borrowed, borrowedInFit, fitItems: fitItems.length, shapeVar,
    fit, terms, relVar, df, withinVar, withinDf, meanCost,
  };
}

/**
 * A few items understate a skewed cost distribution's spread (a t-interval on them under-covers): the
 * observed relative variance is combined with a weak prior — a coefficient of variation of 0.7, worth
 * PRIOR_DF items — as with a conjugate scaled-inverse-χ² prior. It fades as the sample grows.
 */
export const PRIOR_REL_VAR = 0.49;
export const PRIOR_DF = 2;

/** A relative spread pooled over the models (costs differ between models in scale more than in shape). */
function pooled(fits: readonly ModelFit[], own: ModelFit): { relVar: number; df: number } {
  let sum = 0;
  let df = 0;
  if (own.relVar !== null && own.df >= 5) {
    sum = own.df * own.relVar;
    df = own.df;
  } else {
    for (const f of fits) {
      if (f.relVar === null) continue;
      sum += f.df * f.relVar;
      df += f.df;
    }
  }
  return { relVar: (sum + PRIOR_DF * PRIOR_REL_VAR) / (df + PRIOR_DF), df: df + PRIOR_DF };
}

interface ModelPrediction {
  credits: number;
  variance: number;
  df: number;
  requests: number;
  withinSd: number;
  withinObserved: boolean;
  /** Per request of this model's mix: mean cost and its variance for a fresh request. */
  perRequest: { mean: number; varianceOfMean: number; varianceOfOne: number };
  /** The suite's questions as a sample of new ones (a volume forecast); null with fewer than two clusters. */
  newQuestions: NewQuestionsSpread | null;
}

/**
 * The model-based (prediction) estimator of a finite population total: observed items at their
 * observed mean, items seen on another model at that cost times the two models' ratio, the rest at the
 * fitted value. Its error has four parts: the unobserved items' own deviations (this is where the
 * finite-population correction lives — observed items contribute none; a borrowed item only the
 * models' difference in shape), the fit's uncertainty carried to their sum, the ratio's own error
 * (shared by every item it scales, and by the fit in the share of it that stands on borrowed items),
 * and the new run's repeat noise.
 */
function predictModel(f: ModelFit, spread: { relVar: number; df: number }): ModelPrediction {
  const residualVar = spread.relVar * f.meanCost ** 2;
  const withinObserved = f.withinVar !== null;
  const withinVar = f.withinVar ?? 0;
  let credits = 0;
  let ownDeviation = 0;
  let requests = 0;
  let repeatNoise = 0;
  let borrowedSum = 0;
  let fittedSum = 0;
  let ratioRelVar = 0;
  const carried = new Array<number>(f.terms).fill(0);
  for (const item of f.items) {
    requests += item.repeats;
    const seen = f.seen.get(item.key);
    if (seen) {
      credits += item.repeats * seen.mean;
      // Unknown repeat spread: an observed item may still cost anything its peers do (no correction).
      ownDeviation += withinObserved ? (item.repeats ** 2 * withinVar) / seen.count : item.repeats ** 2 * residualVar;
    } else if (f.borrowed.has(item.key)) {
      const b = f.borrowed.get(item.key)!;
      credits += item.repeats * b.credits;
      borrowedSum += item.repeats * b.credits;
      ownDeviation += item.repeats ** 2 * f.shapeVar * b.credits ** 2;
      ratioRelVar = Math.max(ratioRelVar, b.ratioRelVar);
    } else {
      const z = covariates(item, f.terms);
      const predicted = Math.max(0, f.fit.predict(z));
      credits += item.repeats * predicted;
      fittedSum += item.repeats * predicted;
      ownDeviation += item.repeats ** 2 * residualVar;
      z.forEach((v, k) => (carried[k]! += item.repeats * v));
    }
    repeatNoise += item.repeats * withinVar;
  }
  const fitVar = residualVar * f.fit.quadraticForm(carried);
  const ratioVar = ratioRelVar * (borrowedSum + (fittedSum * f.borrowedInFit) / f.fitItems) ** 2;
  const variance = ownDeviation + fitVar + ratioVar + repeatNoise;
  const df = withinObserved && f.seen.size === f.items.length ? Math.max(1, f.withinDf) : spread.df;
  const meanPerRequest = requests > 0 ? credits / requests : 0;
  const costs = [...f.seen.values()].map((o) => o.mean);
  const between = costs.length > 1 ? costs.reduce((a, c) => a + (c - mean(costs)) ** 2, 0) / (costs.length - 1) : residualVar;
  return {
    credits, variance, df, requests, withinSd: Math.sqrt(withinVar), withinObserved,
    perRequest: { mean: meanPerRequest, varianceOfMean: requests > 0 ? variance / requests ** 2 : 0, varianceOfOne: between + withinVar },
    newQuestions: newQuestionsSpread(f.seen),
  };
}

/**
 * Costs are skewed to the right (a few dear answers), so a total estimated from few items is more
 * likely too low than too high: the interval is symmetric on the log scale (a log-normal with the
 * estimate's mean and standard error), which reaches further up than down.
 */
function interval(credits: number, se: number, df: number, level: number): CreditInterval {
  const t = studentTQuantile((1 + level) / 2, df);
  if (!(credits > 0) || se === 0) return { credits: roundCredits(credits), low: roundCredits(Math.max(0, credits - t * se)), high: roundCredits(credits + t * se) };
  const sigma = Math.sqrt(Math.log(1 + (se / credits) ** 2));
  return { credits: roundCredits(credits), low: roundCredits(credits * Math.exp(-t * sigma)), high: roundCredits(credits * Math.exp(t * sigma)) };
}

/**
 * A volume of V fresh requests of new questions like the suite's, at a model's mean per request: the
 * mean's uncertainty times V — the larger of what is unknown of the suite's own items and of how well
 * its questions stand for new ones — plus the requests' own spread.
 */
function volumePrediction(p: ModelPrediction, volume: number): { credits: number; variance: number; df: number } {
  const varianceOfMean = Math.max(p.perRequest.varianceOfMean, p.newQuestions?.varianceOfMean ?? 0);
  const df = p.newQuestions ? Math.min(p.df, p.newQuestions.df) : p.df;
  return { credits: p.perRequest.mean * volume, variance: volume ** 2 * varianceOfMean + volume * p.perRequest.varianceOfOne, df };
}

function disjointSamples(fits: readonly ModelFit[]): boolean {
  const owner = new Map<string, string>();
  for (const f of fits) {
    for (const key of f.seen.keys()) {
      const other = owner.get(key);
      if (other !== undefined && other !== f.model) return false;
      owner.set(key, f.model);
    }
  }
  return true;
}

/**
 * Forecast per model and in total, from the plan's distinct items and what some of them were seen to
 * cost. Item keys are per model (`model` is part of the match).
 */
export function forecastItems(population: readonly PopulationItem[], observed: readonly ItemCosts[], options: ItemForecastOptions): ItemForecast {
  const byModel = new Map<string, PopulationItem[]>();
  for (const item of population) byModel.set(item.model, [...(byModel.get(item.model) ?? []), item]);
  const costsByModel = new Map<string, Map<string, Observed>>();
  for (const o of observed) {
    if (o.count === 0) continue;
    const costs = costsByModel.get(o.model) ?? new Map<string, Observed>();
    costs.set(o.key, { mean: o.mean, count: o.count, ss: o.ss });
    costsByModel.set(o.model, costs);
  }
  const fits: ModelFit[] = [];
  const unestimated: string[] = [];
  const links = linkModels(costsByModel);
  for (const [model, items] of byModel) {
    const fit = fitModel(model, items, costsByModel.get(model) ?? new Map(), links.borrowed.get(model) ?? [], links.shapeVar);
    if (fit) fits.push(fit);
    else unestimated.push(model);
  }
  const predictions = fits.map((f) => ({ fit: f, p: predictModel(f, pooled(fits, f)) }));
  const plannedRequests = predictions.reduce((a, x) => a + x.p.requests, 0);
  const models: Record<string, ItemModelForecast> = {};
  let totalCredits = 0;
  let totalVar = 0;
  let totalSeSum = 0;
  let totalRequests = 0;
  let df = Number.POSITIVE_INFINITY;
  for (const { fit, p } of predictions) {
    const own = options.volume !== undefined ? volumePrediction(p, options.volume) : { credits: p.credits, variance: p.variance, df: p.df };
    const requests = options.volume ?? p.requests;
    const se = Math.sqrt(own.variance);
    const sampleCredits = [...(costsByModel.get(fit.model)?.values() ?? [])];
    models[fit.model] = {
      ...interval(own.credits, se, own.df, options.level),
      requests, credits_per_request: requests > 0 ? roundCredits(own.credits / requests) : 0,
      estimator: fit.terms > 1 ? 'regression' : 'mean',
      items: { planned: fit.items.length, observed: fit.seen.size, from_other_models: fit.borrowed.size },
      within_item: { sd: roundCredits(p.withinSd), observed: p.withinObserved },
      sample: { items: fit.seen.size, requests: sampleCredits.reduce((a, o) => a + o.count, 0), credits: sumCredits(sampleCredits.map((o) => o.mean * o.count)) },
      df: own.df, standard_error: roundCredits(se),
    };
    // The total: the plan's own split of models (for a volume, each model's planned share of it).
    const share = options.volume !== undefined && plannedRequests > 0 ? p.requests / plannedRequests : 1;
    const part = options.volume !== undefined ? volumePrediction(p, options.volume * share) : own;
    totalCredits += part.credits;
    totalVar += part.variance;
    totalSeSum += Math.sqrt(part.variance);
    totalRequests += options.volume !== undefined ? options.volume * share : p.requests;
    df = Math.min(df, own.df);
  }
  const independent = disjointSamples(fits);
  const totalSe = independent ? Math.sqrt(totalVar) : totalSeSum;
  const total = fits.length === 0 ? { credits: 0, low: 0, high: 0 } : interval(totalCredits, totalSe, Number.isFinite(df) ? df : 1, options.level);
  const label = options.volume !== undefined ? "the volume split between models as the suite's plan splits them" : 'one run of the plan';
  return { total: { ...total, requests: Math.round(totalRequests), label }, models, level: options.level, total_interval: independent ? 'independent' : 'bound', unestimated };
}
