// `kbbench estimate`: forecast what the whole plan (or a volume of traffic like it) will cost, with an
// interval, from a small deterministic sample it sends (kept as a run dir) or from runs already made.
import { join, resolve } from 'node:path';
import { forecastItems, type ItemForecast } from '../credits/item-forecast.js';
import { ItemCostTally, populationOf } from '../credits/items.js';
import { moneyOf, runwayOf, type Money, type Runway } from '../credits/money.js';
import { selectSample, type SampleSize } from '../credits/sample-plan.js';
import { InputError } from '../domain/errors.js';
import { countUnits, formatShard } from '../plan/index.js';
import type { Plan } from '../plan/types.js';
import { isoNow } from '../runner/clock.js';
import { readResults } from '../store/results-reader.js';
import { defaultRunDir, hasResults, RUN_FILES, writeJsonAtomic } from '../store/run-dir.js';
import { fromUnits, sampleCreditUnits } from '../credits/units.js';
import { withSections, type RunConfig } from '../config/run-config.js';
import { prepareRun } from '../session/prepare.js';
import { arrivalProfileOf, volumeUnknownOf } from '../load/index.js';
import type { LoadSpec } from '../domain/load.js';
import { plannedLoad } from '../session/load-profile.js';
import { askedConcurrency, closedLoad, specOf } from '../config/load-section.js';
import { runSession, type SessionHooks } from '../session/run-session.js';

export const ESTIMATE_FILE = 'estimate.json';
export const ESTIMATE_METHOD =
  'per model, over the plan\'s distinct items (a case or a thread turn): observed items at their observed mean cost, ' +
  'items seen on another model at that cost times the two models\' cost ratio over the linking cases both were asked (a ratio estimator across models), ' +
  'the rest predicted by least squares on what is known before sending (input size: prompt, additional_context and earlier turns; turn position) ' +
  'or by the observed mean when the sample is too small for a slope; times each item\'s repeats. Student-t interval from two levels: ' +
  'the unobserved items\' residual spread (finite-population correction: observed items add none; borrowed ones the models\' difference in shape and the ratio\'s error) and the spread of repeats within an item';

export interface EstimateRequest {
  /** The run's options as `run` would take them: models, repeat, shard, target, budget (for the sample). */
  options: RunConfig;
  sample: SampleSize;
  level: number;
  /** Forecast this many requests of traffic like the suite (each model taking all of it), instead of one run of its plan. */
  requests?: number;
  /** The period `requests` are counted in ("month"), only echoed. */
  per?: string;
  /** Forecast from these run directories, sending nothing. */
  from?: string[];
  /** Price of one credit, in `currency`. */
  creditPrice?: number;
  currency?: string;
  /** The account's remaining credits, when not observed (or to override what was). */
  balance?: number;
  hooks: SessionHooks;
}

export interface Estimate extends ItemForecast {
  suite: { name: string; path: string; sha256: string };
  forecast_for: {
    requests: number; repeat: number; shard: string | null; volume: { requests: number; per: string | null; each_model: true } | null;
    /** Why the run's load sends more than this counts (a sweep, a ramp of workers): the forecast is one pass of the plan. */
    load_not_counted: string | null;
  };
  /** Credits the forecast's own sample spent (0 when forecast from runs already made). */
  sample_credits_used: number;
  /** `requests` (and `per_model`): sent by the sample; `planned_requests`: what it meant to send. Null with --from. */
  sample: { run_dir: string; status: string; requests: number; planned_requests: number; size: string; per_model: Record<string, number> } | null;
  /** With --from: the runs read and how many of the plan's items they had seen. */
  from: { run_dirs: string[]; requests: number; items_matched: number; items_planned: number } | null;
  money: Money | null;
  runway: Runway | null;
  method: string;
}

function volumeOf(request: EstimateRequest, plan: Plan): number | undefined {
  const { options } = request;
  if (request.requests !== undefined) return request.requests;
  // An open-loop load test sends the requests its starts imply (a thread start sends every turn).
  const profile = arrivalProfileOf(specOf(options));
  if (profile !== null) return plannedLoad(profile, plan).requests;
  return undefined;
}

const sizeLabel = (size: SampleSize): string => ('percent' in size ? `${size.percent}% of the distinct items` : `${size.perModel} requests per model`);

function checkRequest(request: EstimateRequest): void {
  if (request.options.placement.resumeDir) throw new InputError('estimate sends a fresh sample; --resume belongs to run', { field: '--resume' });
  const { sample } = request;
  if ('perModel' in sample && (!Number.isInteger(sample.perModel) || sample.perModel < 1)) {
    throw new InputError(`--sample ${sample.perModel}: expected a whole number ≥ 1 of requests per model, or a share such as 10%`, { field: '--sample' });
  }
  if ('percent' in sample && !(sample.percent > 0 && sample.percent <= 100)) {
    throw new InputError(`--sample ${sample.percent}%: expected a share above 0% and at most 100%`, { field: '--sample' });
  }
  if (!(request.level > 0 && request.level < 1)) throw new InputError(`--level ${request.level}: expected a level between 0 and 1, e.g. 0.95`, { field: '--level' });
  for (const dir of request.from ?? []) {
    if (!hasResults(dir)) throw new InputError(`--from ${dir}: no ${RUN_FILES.results} there (a run directory of kbbench run)`, { file: dir, field: '--from' });
  }
}

interface Tallied {
  tally: ItemCostTally;
  requests: number;
  credits: number;
  /** The lowest credits_remaining any answer reported: the latest balance seen. */
  remaining: number | null;
  perModel: Record<string, number>;
}

async function tallyRuns(dirs: readonly string[]): Promise<Tallied> {
  const tally = new ItemCostTally();
  let requests = 0;
  let units = 0;
  let remaining: number | null = null;
  const perModel: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const dir of dirs) {
    for await (const s of readResults(dir)) {
      tally.add(s);
      if (s.endpoint === 'create') continue;
      requests += 1;
      perModel[s.model] = (perModel[s.model] ?? 0) + 1;
      units += sampleCreditUnits(s);
      if (s.credits_remaining !== null) remaining = remaining === null ? s.credits_remaining : Math.min(remaining, s.credits_remaining);
    }
  }
  return { tally, requests, credits: fromUnits(units), remaining, perModel };
}

function forecastFor(plan: Plan, volume: number | undefined, load: LoadSpec): Estimate['forecast_for'] {
  return {
    requests: volume ?? plan.counts.requests, repeat: plan.repeat, shard: plan.shard ? formatShard(plan.shard) : null,
    volume: volume !== undefined ? { requests: volume, per: null, each_model: true } : null,
    load_not_counted: volume === undefined ? volumeUnknownOf(load) : null,
  };
}

export async function estimateSuite(request: EstimateRequest): Promise<Estimate> {
  checkRequest(request);
  const { options } = request;
  const target = await prepareRun(options);
  // The volume of the load the run would send: the suite's `load:` block counts as flags would.
  const volume = volumeOf({ ...request, options: target.options }, target.plan);
  const population = populationOf(target.plan);
  let tallied: Tallied;
  let sample: Estimate['sample'] = null;
  let runDir: string | null = null;
  if (request.from?.length) {
    tallied = await tallyRuns(request.from.map((d) => resolve(d)));
  } else {
    runDir = resolve(options.outputs.outDir ?? defaultRunDir(options.outputs.reportsRoot, `${target.suite.name}-estimate`, isoNow()));
    if (hasResults(runDir)) {
      throw new InputError('the sample directory already holds a run; name a new one with --out', { file: runDir, field: '--out' });
    }
    // The sample is an ordinary run (same target, preflight, results and reports) of part of one repeat.
    let items: ReturnType<typeof selectSample> = [];
    // Its load section is replaced whole: a closed loop at the run's concurrency, whatever the flags or the suite asked.
    const sampleOptions = withSections(options, {
      plan: { ...options.plan, repeat: 1 },
      placement: options.placement.workers === undefined ? {} : { workers: options.placement.workers },
      outputs: { ...options.outputs, outDir: runDir },
      gates: { ...options.gates, thresholdFlags: [] },
      load: closedLoad(askedConcurrency(options.load)),
    });
    const result = await runSession(sampleOptions, request.hooks, {
      purpose: 'estimate-sample',
      select: (prepared) => (items = selectSample(prepared.plan, request.sample)),
    });
    tallied = await tallyRuns([runDir]);
    sample = {
      run_dir: runDir, status: result.run.status, requests: tallied.requests, planned_requests: countUnits(items).requests, size: sizeLabel(request.sample),
      per_model: Object.fromEntries(target.plan.models.map((m) => [m, tallied.perModel[m] ?? 0])),
    };
  }
  const observed = tallied.tally.entries();
  const forecast = forecastItems(population, observed, { level: request.level, ...(volume !== undefined ? { volume } : {}) });
  const planned = new Set(population.map((i) => `${i.model}\u0000${i.key}`));
  const forecastForPlan = forecastFor(target.plan, volume, target.load);
  if (forecastForPlan.volume) forecastForPlan.volume.per = request.per ?? null;
  const balance = request.balance !== undefined ? { credits: request.balance, source: '--balance' as const } : tallied.remaining !== null ? { credits: tallied.remaining, source: 'observed' as const } : null;
  const estimate: Estimate = {
    suite: target.plan.suite,
    forecast_for: forecastForPlan,
    ...forecast,
    sample_credits_used: sample ? tallied.credits : 0,
    sample,
    from: request.from?.length
      ? { run_dirs: request.from.map((d) => resolve(d)), requests: tallied.requests, items_matched: observed.filter((o) => planned.has(`${o.model}\u0000${o.key}`)).length, items_planned: population.length }
      : null,
    money: request.creditPrice !== undefined ? moneyOf(forecast, request.creditPrice, request.currency ?? null) : null,
    runway: balance ? runwayOf(forecast, balance, volume !== undefined ? (request.per ?? null) : null, request.creditPrice) : null,
    method: ESTIMATE_METHOD,
  };
  if (runDir) writeJsonAtomic(join(runDir, ESTIMATE_FILE), estimate);
  return estimate;
}
