// --resume keeps the interrupted run's plan and target: only how it is sent may change.
import { InputError } from '../domain/errors.js';
import type { RunInfo } from '../domain/run.js';
import { LOAD_KINDS } from '../load/index.js';
import type { RunSessionOptions } from '../config/run-config.js';

/** What decides which items exist and where they go: restored from run.json, never taken from new flags. */
const PLAN_KEYS = [
  'models', 'repeat', 'shard', 'requestDefaults', 'board', 'chat', 'baseUrl', 'auth', 'thresholdFlags', 'dialect', 'filter', 'onlyFailedDir',
  // One run, one grader: a resume grades the rest as the start did (the grader's key comes from the environment again).
  'graderChat', 'graderModel', 'graderUrl',
] as const satisfies readonly (keyof RunSessionOptions)[];

/** A flag left at its default says nothing; only a value the user chose can contradict the run. */
function isDefault(value: unknown): boolean {
  if (value === undefined || value === null || value === 1 || value === 'header') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value as object).length === 0;
}

export interface ResumedOptions {
  options: RunSessionOptions;
  warnings: string[];
}

/** The closed loop's --concurrency when none is given (cli/commands/run-flags.ts): it says nothing on a resume. */
const DEFAULT_CONCURRENCY = 4;

export function resumeOptions(previous: RunInfo, current: RunSessionOptions): ResumedOptions {
  const before = previous.options as Partial<RunSessionOptions>;
  const spec = previous.load.spec;
  // The recorded spec decides (the new flags' own spec is checked by src/load/ in prepareRun: --resume is one of its fields).
  const noResume = LOAD_KINDS[spec.kind].noResume;
  if (noResume !== undefined) throw new InputError(noResume, { field: '--resume' });
  const restored: Record<string, unknown> = { ...current };
  const warnings: string[] = [];
  if (spec.kind === 'closed') {
    // How many units are in flight is part of what was measured: a resume keeps the run's concurrency.
    if (current.concurrency !== DEFAULT_CONCURRENCY && current.concurrency !== spec.concurrency) {
      warnings.push(`--resume keeps the run's concurrency (${spec.concurrency}); ignoring ${current.concurrency}`);
    }
    restored.concurrency = spec.concurrency;
  }
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
  return { options: restored as unknown as RunSessionOptions, warnings };
}
