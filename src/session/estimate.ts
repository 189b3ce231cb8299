// `kbbench estimate`: send a small deterministic sample of a suite, then forecast what the whole
// plan (or a volume of traffic like it) will cost, with an interval; the sample's run dir is kept.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { forecastCredits, type CostObservation, type Forecast } from '../credits/forecast.js';
import { plannedWork, selectSample } from '../credits/sample-plan.js';
import { InputError } from '../domain/errors.js';
import type { Sample } from '../domain/sample.js';
import { readResults } from '../store/results-reader.js';
import { countUnits, formatShard } from '../plan/index.js';
import { fromUnits, sampleCreditUnits } from '../credits/units.js';
import { isoNow } from '../runner/clock.js';
import { defaultRunDir, RUN_FILES, writeJsonAtomic } from '../store/run-dir.js';
import type { RunSessionOptions } from './options.js';
import { prepareRun } from './prepare.js';
import { loadProfileOf, plannedLoad } from './load-profile.js';
import type { Plan } from '../plan/types.js';
import { runSession, type SessionHooks } from './run-session.js';

export const ESTIMATE_FILE = 'estimate.json';
export const ESTIMATE_METHOD =
  'per model: mean cost of a fresh question over the sampled cases and conversations (a thread is one draw; its turns are ' +
  'deflated by how turn k costs more than turn 1 as history grows), times the planned work in fresh-question equivalents; ' +
  'Student-t interval on that mean, scaled by the same work; total paired over shared cases when every model saw the same ones';

export interface EstimateRequest {
  /** The run's options as `run` would take them: models, repeat, shard, target, budget (for the sample). */
  options: RunSessionOptions;
  samplePerModel: number;
  level: number;
  /** Forecast this many requests of traffic like the suite, instead of one run of its plan. */
  requests?: number;
  /** The period `requests` are counted in ("day"), only echoed. */
  per?: string;
  hooks: SessionHooks;
}

export interface Estimate extends Forecast {
  suite: { name: string; path: string; sha256: string };
  forecast_for: { requests: number; repeat: number; shard: string | null; volume: { requests: number; per: string | null } | null };
  sample_credits_used: number;
  /** `requests` (and `per_model`): sent by the sample; `planned_requests`: what it meant to send. */
  sample: { run_dir: string; status: string; requests: number; planned_requests: number; max_per_model: number; per_model: Record<string, number> };
  method: string;
}

/** The forecast's data: answers with known credits, each with what its judges cost. */
export function costObservations(samples: readonly Sample[]): CostObservation[] {
  return samples.flatMap((s): CostObservation[] => {
    if (s.outcome !== 'ok' || s.credits_used === null || s.endpoint === 'create') return [];
    const unit = s.case_id !== null ? `case:${s.case_id}` : `thread:${s.thread_id ?? s.item_id}`;
    return [{ model: s.model, unit, turn: s.case_id !== null ? null : s.turn, credits: fromUnits(sampleCreditUnits(s)) }];
  });
}

function volumeOf(request: EstimateRequest, plan: Plan): number | undefined {
  const { options } = request;
  if (request.requests !== undefined) return request.requests;
  // An open-loop load test sends the requests its starts imply (a thread start sends every turn).
  const profile = loadProfileOf(options);
  if (profile !== null) return plannedLoad(profile, plan).requests;
  return undefined;
}

function checkRequest(request: EstimateRequest): void {
  if (request.options.resumeDir) throw new InputError('estimate sends a fresh sample; --resume belongs to run', { field: '--resume' });
  if (!Number.isInteger(request.samplePerModel) || request.samplePerModel < 1) {
    throw new InputError(`--sample ${request.samplePerModel}: expected a whole number ≥ 1 of requests per model`, { field: '--sample' });
  }
  if (!(request.level > 0 && request.level < 1)) throw new InputError(`--level ${request.level}: expected a level between 0 and 1, e.g. 0.95`, { field: '--level' });
}

async function readSamples(runDir: string): Promise<Sample[]> {
  const samples: Sample[] = [];
  for await (const s of readResults(runDir)) samples.push(s);
  return samples;
}

export async function estimateSuite(request: EstimateRequest): Promise<Estimate> {
  checkRequest(request);
  const { options } = request;
  const target = await prepareRun(options);
  const runDir = resolve(options.outDir ?? defaultRunDir(options.reportsRoot, `${target.suite.name}-estimate`, isoNow()));
  if (existsSync(join(runDir, RUN_FILES.results))) {
    throw new InputError('the sample directory already holds a run; name a new one with --out', { file: runDir, field: '--out' });
  }
  // The sample is an ordinary run (same target, preflight, results and reports) of part of one repeat.
  let items: ReturnType<typeof selectSample> = [];
  let models: string[] = [];
  const sampleOptions = { ...options, repeat: 1, shard: undefined, rate: undefined, durationMs: undefined, stages: undefined, startRate: undefined, arrival: undefined, concurrencyStages: undefined, mix: undefined, warmupMs: undefined, outDir: runDir, thresholdFlags: [] };
  const result = await runSession(sampleOptions, request.hooks, {
    purpose: 'estimate-sample',
    select: (prepared) => {
      models = prepared.plan.models;
      items = selectSample(prepared.plan, request.samplePerModel);
      return items;
    },
  });
  const volume = volumeOf(request, target.plan);
  const samples = await readSamples(runDir);
  const forecast = forecastCredits(plannedWork(target.plan), costObservations(samples), {
    level: request.level, ...(volume !== undefined ? { volume } : {}),
  });
  const counts = countUnits(items);
  const estimate: Estimate = {
    suite: target.plan.suite,
    forecast_for: {
      requests: volume ?? target.plan.counts.requests, repeat: target.plan.repeat, shard: target.plan.shard ? formatShard(target.plan.shard) : null,
      volume: volume !== undefined ? { requests: volume, per: request.per ?? null } : null,
    },
    ...forecast,
    sample_credits_used: result.summary.totals.credits_used,
    sample: {
      run_dir: runDir, status: result.run.status, requests: samples.filter((x) => x.endpoint !== 'create').length, planned_requests: counts.requests, max_per_model: request.samplePerModel,
      per_model: Object.fromEntries(models.map((m) => [m, samples.filter((x) => x.model === m && x.endpoint !== 'create').length])),
    },
    method: ESTIMATE_METHOD,
  };
  writeJsonAtomic(join(runDir, ESTIMATE_FILE), estimate);
  return estimate;
}
