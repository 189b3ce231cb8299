// --resume keeps the interrupted run's plan and target: only how it is sent may change.
import { InputError } from '../domain/errors.js';
import type { RecordedOptions, RunInfo } from '../domain/run.js';
import { noResumeOf, resumeClashOf } from '../load/index.js';
import type { RunConfig } from '../config/run-config.js';
import { RUN_DEFAULTS } from '../config/defaults.js';
import { askedConcurrency, loadInputOf, specOf } from '../config/load-section.js';

/** What decides which items exist and where they go: restored from run.json, never taken from new flags. */
const PLAN_KEYS = [
  'models', 'repeat', 'shard', 'requestDefaults', 'board', 'chat', 'baseUrl', 'auth', 'thresholdFlags', 'dialect', 'filter', 'onlyFailedDir',
  // One run, one grader: a resume grades the rest as the start did (the grader's key comes from the environment again).
  'graderChat', 'graderModel', 'graderUrl',
] as const satisfies readonly (keyof RunConfig & keyof RecordedOptions)[];

/** A flag left at its default says nothing; only a value the user chose can contradict the run. */
function isDefault(value: unknown): boolean {
  if (value === undefined || value === null || value === 1 || value === 'header') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value as object).length === 0;
}

export interface ResumedOptions {
  options: RunConfig;
  warnings: string[];
}

export function resumeOptions(previous: RunInfo, current: RunConfig): ResumedOptions {
  const before = previous.options;
  const spec = previous.load.spec;
  // The recorded spec decides (the new flags' own spec is checked by src/load/ in prepareRun: --resume is one of its fields).
  const noResume = noResumeOf(spec);
  if (noResume !== null) throw new InputError(noResume, { field: '--resume' });
  // The new flags' load is checked as asked (a kind that cannot be continued names its flag), then
  // the recorded spec replaces the whole load section: how the run was loaded is part of what it measured.
  // A kind with a check of its own (a replay: its log and its flags against run.json) says what clashes instead.
  const clash = 'asked' in current.load ? resumeClashOf(spec, loadInputOf(current.load.asked, current), current.allowChangedSuite === true) : undefined;
  if (clash) throw new InputError(clash, { field: '--resume' });
  if (clash === undefined) specOf(current);
  const restored: Record<string, unknown> = { ...current, load: { spec } };
  const warnings: string[] = [];
  const asked = askedConcurrency(current.load);
  const recorded = askedConcurrency({ spec });
  if (asked !== RUN_DEFAULTS.concurrency && asked !== recorded) warnings.push(`--resume keeps the run's concurrency (${recorded}); ignoring ${asked}`);
  for (const key of PLAN_KEYS) {
    // An option the run.json does not hold (an older run) keeps this run's value.
    if (!(key in before)) continue;
    const was = before[key];
    const now = current[key];
    if (!isDefault(now) && JSON.stringify(now) !== JSON.stringify(was)) {
      warnings.push(`--resume keeps the run's ${key} (${JSON.stringify(was ?? null)}); ignoring ${JSON.stringify(now)}`);
    }
    restored[key] = was;
  }
  // Of the embedded service, its knowledge base and seed shape the answers; latency and faults are how it is sent.
  const embedded = before.embedded ?? {};
  restored.embedded = {
    ...current.embedded,
    ...(embedded.workspacePath !== undefined ? { workspacePath: embedded.workspacePath } : {}),
    ...(embedded.seed !== undefined ? { seed: embedded.seed } : {}),
  };
  return { options: restored as unknown as RunConfig, warnings };
}
