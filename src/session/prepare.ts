// Everything a run checks before it sends anything: suite, plan, thresholds, budget flags.
import { parseThresholdFlagEntry, type ThresholdAbort } from '../metrics/threshold-abort.js';
import { validateThresholds } from '../metrics/thresholds.js';
import { parseThresholdKey } from '../metrics/threshold-parser.js';
import { didYouMean } from '../suite/suite-error.js';
import { InputError } from '../domain/errors.js';
import type { Suite, SuiteCase } from '../domain/suite.js';
import { buildPlan, mergeOptions, narrowPlan } from '../plan/index.js';
import type { Plan, PlanUnit } from '../plan/types.js';
import { loadSuites } from '../suite/index.js';
import type { LoadSpec } from '../domain/load.js';
import { specOf } from '../config/load-section.js';
import { filterSuite, parseFilters } from '../suite/filter.js';
import { assertReuseFlags } from './reuse-answers.js';
import { onlyFailedFilter } from '../store/run-selection.js';
import { withSuiteLoad, withSuiteTraffic } from '../config/from-suite.js';
import { parseRunConfig, type RunConfig } from '../config/run-config.js';
import { assertModelNames } from './model-names.js';
import { assertThresholdScopes } from './threshold-scopes.js';
import type { GraderSpec } from '../domain/suite.js';
import { assertGraders, graderOf, loadKnowledge, suiteChecks, type Knowledge } from '../graders/index.js';
import { calibrate, DEFAULT_MIN_LABELS } from '../graders/calibration.js';
import type { GraderCalibration } from '../domain/run.js';
import { agreementOfLabels } from '../review/labels-of-run.js';
import { assertSameSuite } from '../compare/same-suite.js';
import { oneModelReasonOf, shardsSchedule } from '../load/index.js';
import { logSuite } from '../load/kinds/traffic/log-suite.js';

export interface PreparedRun {
  /** The run's config with the suite's `load:` block applied under the flags (config/from-suite.ts), its load section the spec. */
  options: RunConfig;
  /** The run's load spec, built once here (src/load/): every later step reads it, never the load flags. */
  load: LoadSpec;
  suite: Suite;
  plan: Plan;
  thresholds: Record<string, string[]>;
  /** Thresholds that stop the run when they fail (k6's abortOnFail), from the suite and --threshold flags. */
  thresholdAborts: ThresholdAbort[];
  warnings: string[];
  /** Who grades the model-graded checks (flags over the suite's block); absent when none is named. */
  grader?: GraderSpec;
  /** The suite's knowledge documents, indexed (context checks). */
  knowledge?: Knowledge;
  /** `grader: { min_kappa, labels }`: which model-graded check types gate this run, from people's labels read now. */
  calibration?: GraderCalibration;
}

/** The suite's thresholds plus `--threshold metric=expression` flags, all validated up front. */
export function mergeThresholds(suiteThresholds: Record<string, string[]>, flags: string[]): Record<string, string[]> {
  const merged: Record<string, string[]> = {};
  for (const [key, list] of Object.entries(suiteThresholds)) merged[key] = [...list];
  for (const flag of flags) {
    const { key, expression } = parseThresholdFlagEntry(flag);
    (merged[key] ??= []).push(expression);
  }
  validateThresholds(merged);
  return merged;
}

/** A `{tag:…}` threshold naming no tag of the suite would judge nothing: an input error, not a silent fail. */
function checkThresholdTags(thresholds: Record<string, string[]>, suite: Suite): void {
  const known = suite.tags ?? [];
  for (const key of Object.keys(thresholds)) {
    const tag = parseThresholdKey(key).scope.tag;
    if (tag === undefined || known.includes(tag)) continue;
    const list = known.length > 0 ? `the suite's tags: ${known.join(', ')}` : 'the suite has no tags';
    throw new InputError(`threshold ${key} names tag "${tag}"${didYouMean(tag, known)}, which no case or thread has; ${list}`, { file: suite.path, field: 'thresholds' });
  }
}

/** The suite, narrowed by --filter and --only-failed (both: an item must pass both). */
async function selectedSuite(options: RunConfig): Promise<Suite> {
  const byPattern = parseFilters(options.plan.filter ?? []);
  const byFailure = options.plan.onlyFailedDir === undefined ? undefined : await onlyFailedFilter(options.plan.onlyFailedDir);
  const suite = options.plan.suiteIsLog ? await logSuite(options.plan.suitePath) : await loadSuites(options.plan.suitePaths ?? [options.plan.suitePath]);
  if (byPattern === undefined && byFailure === undefined) return suite;
  const narrowed = filterSuite(suite, (subject) => (byPattern?.(subject) ?? true) && (byFailure?.(subject) ?? true));
  if (narrowed.cases.length === 0 && narrowed.threads.length === 0) {
    const what = [options.plan.filter?.length ? `--filter ${options.plan.filter.join(' ')}` : '', byFailure ? `--only-failed ${options.plan.onlyFailedDir}` : ''].filter(Boolean).join(' and ');
    throw new InputError(`${what} selects no case or thread of ${suite.path}`, { field: options.plan.filter?.length ? '--filter' : '--only-failed' });
  }
  return narrowed;
}

/**
 * The repeats a run makes: `repeat_pass: k/n` means n repeats, so with no --repeat (1) the run
 * makes n; a --repeat that is not n, or rules that disagree on n, are input errors.
 */
function repeatOf(suite: Suite, repeat: number): number {
  const ns = new Set<number>();
  if (suite.repeat_pass) ns.add(suite.repeat_pass.n);
  // Only YAML suites (arrays) carry per-case rules; a CSV list is not read through for them.
  if (Array.isArray(suite.cases)) for (const entry of suite.cases as readonly SuiteCase[]) if (entry.repeat_pass) ns.add(entry.repeat_pass.n);
  for (const thread of suite.threads) if (thread.repeat_pass) ns.add(thread.repeat_pass.n);
  if (ns.size === 0) return repeat;
  if (ns.size > 1) throw new InputError(`repeat_pass rules disagree on n (${[...ns].join(', ')}): a run makes one number of repeats`, { file: suite.path, field: 'repeat_pass' });
  const [n] = [...ns];
  if (repeat === 1 || repeat === n) return n!;
  throw new InputError(`repeat_pass needs ${n} repeats but --repeat is ${repeat}: drop --repeat or give --repeat ${n}`, { file: suite.path, field: 'repeat_pass' });
}

/** The flags' checks that are not the load's (the load's rules are src/load/'s, written once). */
function checkRunFlags(options: RunConfig): void {
  if (options.stop.maxErrorRate !== undefined && !(options.stop.maxErrorRate > 0 && options.stop.maxErrorRate <= 1)) {
    throw new InputError(`--max-error-rate ${options.stop.maxErrorRate}: expected a rate in (0, 1], e.g. 0.1 or 10%`, { field: '--max-error-rate' });
  }
  if (options.placement.resumeDir !== undefined && options.outputs.outDir !== undefined) {
    throw new InputError('--resume continues a run in its own directory; leave out --out', { field: '--out' });
  }
  assertReuseFlags(options);
}

/**
 * kbbench streams unless told not to (the runner's default), so an unset `streaming` counts as on.
 * Asked of the suite's cases and turns, not of the plan's units: the answer is the same, and the
 * plan may be a million units long.
 */
function allStreaming(suite: Suite, flags: RunConfig['request']['requestDefaults']): boolean {
  const streams = (options: Suite['defaults']) => mergeOptions(suite.defaults, options, flags).streaming !== false;
  for (const c of suite.cases) if (!streams(c.options)) return false;
  return suite.threads.every((t) => t.turns.every((turn) => streams(turn.options)));
}

/** The suite's calibration rule judged on its labels, per model-graded type the suite uses (before anything is sent). */
async function calibrationOf(suite: Suite): Promise<GraderCalibration | undefined> {
  const rule = suite.grader_calibration;
  if (rule === undefined) return undefined;
  const groups = await agreementOfLabels(rule.labels, 'grader.labels');
  const types = new Set([...suiteChecks(suite)].map((c) => c.type));
  return calibrate({ min_kappa: rule.min_kappa, min_labels: rule.min_labels ?? DEFAULT_MIN_LABELS, labels: rule.labels }, groups, [...types]);
}

export async function prepareRun(asked: RunConfig): Promise<PreparedRun> {
  // The library's config goes through the same schema as the flags' and a suite's.
  const requested = parseRunConfig(asked);
  const suite = await selectedSuite(requested);
  const base = requested.gates.baselineSuite;
  if (base) assertSameSuite({ name: base.name, where: base.dir }, { name: suite.name, where: suite.path }, { base: '--baseline', head: 'this run' });
  const merged = await withSuiteTraffic(withSuiteLoad(requested, suite.load), suite.load);
  checkRunFlags(merged);
  const load = specOf(merged);
  const options: RunConfig = { ...merged, load: { spec: load } };
  // A record is one request: its own model, else one --models, else the service's default; never several.
  const oneModel = oneModelReasonOf(load);
  if (oneModel !== null && (options.plan.models?.length ?? 0) > 1) throw new InputError(`--models ${options.plan.models!.join(',')}: ${oneModel}`, { field: '--models' });
  const plan = buildPlan(suite, {
    ...(options.plan.models?.length ? { models: options.plan.models } : {}),
    repeat: repeatOf(suite, options.plan.repeat),
    // An open loop's shard is a segment of the starts over the whole plan (runner/segment.ts), not part of the items.
    ...(options.placement.shard && !shardsSchedule(load) ? { shard: options.placement.shard } : {}),
    defaults: options.request.requestDefaults,
  });
  const thresholds = mergeThresholds(suite.thresholds, options.gates.thresholdFlags);
  checkThresholdTags(thresholds, suite);
  if (options.budget.minRemaining !== undefined && allStreaming(suite, options.request.requestDefaults)) {
    throw new InputError('--min-remaining needs credits_remaining, which only JSON answers report (a stream reports credits_used alone): add --no-stream, or use --max-credits', { field: '--min-remaining' });
  }
  // A replay's requests are the log's records, read as it goes: it needs no plan items of its own.
  if (plan.counts.items === 0 && load.kind !== 'traffic') {
    throw new InputError('the plan is empty: no case or thread runs on the chosen models (and shard)', { file: suite.path });
  }
  assertModelNames(plan.models, suite.path);
  assertThresholdScopes(thresholds, { suite, plan });
  const thresholdAborts = [...(suite.threshold_aborts ?? []), ...options.gates.thresholdFlags.flatMap((f) => parseThresholdFlagEntry(f).abort ?? [])];
  const { chat, model, url } = options.grader;
  const grader = graderOf(suite, { ...(chat !== undefined ? { graderChat: chat } : {}), ...(model !== undefined ? { graderModel: model } : {}), ...(url !== undefined ? { graderUrl: url } : {}) });
  assertGraders(suite, grader);
  const knowledge = suite.knowledge ? loadKnowledge(suite.knowledge) : undefined;
  const calibration = await calibrationOf(suite);
  return {
    options, load, suite, plan, thresholds, thresholdAborts, warnings: [...suite.warnings, ...plan.warnings],
    ...(grader ? { grader } : {}), ...(knowledge ? { knowledge } : {}), ...(calibration ? { calibration } : {}),
  };
}

/**
 * The same run on a chosen subset of its plan (an estimate's sample). Thresholds are left out:
 * they judge a whole run, and a sample is not one.
 */
export function narrowPrepared(prepared: PreparedRun, units: PlanUnit[]): PreparedRun {
  return { ...prepared, plan: narrowPlan(prepared.plan, units), thresholds: {}, thresholdAborts: [] };
}
