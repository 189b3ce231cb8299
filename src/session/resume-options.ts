// --resume keeps the interrupted run's plan and target: only how it is sent may change.
import { InputError } from '../domain/errors.js';
import type { RunInfo } from '../domain/run.js';
import { noResumeOf, ownConversationsOf, resumeClashOf } from '../load/index.js';
import { parseRunConfig, type RunConfig } from '../config/run-config.js';
import { RUN_DEFAULTS } from '../config/defaults.js';
import { askedConcurrency, loadInputOf, specOf } from '../config/load-section.js';

/**
 * What decides which items exist and where they go, by section: restored from run.json, never taken
 * from new flags. One run, one grader: a resume grades the rest as the start did (its key comes from the environment again).
 */
const PLAN_KEYS = {
  plan: ['models', 'repeat', 'filter', 'onlyFailedDir'],
  placement: ['shard'],
  request: ['requestDefaults'],
  target: ['board', 'chat', 'baseUrl', 'auth', 'dialect'],
  gates: ['thresholdFlags'],
  grader: ['chat', 'model', 'url'],
} as const satisfies { [S in keyof RunInfo['config']]?: readonly (keyof RunInfo['config'][S] & keyof RunConfig[S])[] };

/** How the warning names a key (the grader's by their flags' words). */
const keyName = (section: string, key: string): string => (section === 'grader' ? `grader${key[0]!.toUpperCase()}${key.slice(1)}` : key);

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
  const before = previous.config;
  const spec = previous.load.spec;
  // The recorded spec decides (the new flags' own spec is checked by src/load/ in prepareRun: --resume is one of its fields).
  const noResume = noResumeOf(spec);
  if (noResume !== null) throw new InputError(noResume, { field: '--resume' });
  // The new flags' load is checked as asked (a kind that cannot be continued names its flag), then
  // the recorded spec replaces the whole load section: how the run was loaded is part of what it measured.
  // A kind with a check of its own (a replay: its log and its flags against run.json) says what clashes instead.
  const clash = 'asked' in current.load ? resumeClashOf(spec, loadInputOf(current.load.asked, current), current.record.allowChangedSuite === true) : undefined;
  if (clash) throw new InputError(clash, { field: '--resume' });
  if (clash === undefined) specOf(current);
  const warnings: string[] = [];
  const asked = askedConcurrency(current.load);
  const recorded = askedConcurrency({ spec });
  if (asked !== RUN_DEFAULTS.concurrency && asked !== recorded) warnings.push(`--resume keeps the run's concurrency (${recorded}); ignoring ${asked}`);
  const restored: RunConfig = { ...current, load: { spec } };
  for (const [section, keys] of Object.entries(PLAN_KEYS)) {
    const was: Record<string, unknown> = before[section as keyof typeof PLAN_KEYS];
    const now: Record<string, unknown> = current[section as keyof typeof PLAN_KEYS];
    const kept: Record<string, unknown> = { ...now };
    for (const key of keys) {
      // An option the run.json does not hold (an older run) keeps this run's value.
      if (!(key in was)) continue;
      if (!isDefault(now[key]) && JSON.stringify(now[key]) !== JSON.stringify(was[key])) {
        warnings.push(`--resume keeps the run's ${keyName(section, key)} (${JSON.stringify(was[key] ?? null)}); ignoring ${JSON.stringify(now[key])}`);
      }
      kept[key] = was[key];
    }
    Object.assign(restored, { [section]: kept });
  }
  // Of the embedded service, its knowledge base and seed shape the answers; latency and faults are how it is sent.
  const embedded = before.embedded;
  restored.embedded = {
    ...current.embedded,
    ...(embedded.workspacePath !== undefined ? { workspacePath: embedded.workspacePath } : {}),
    ...(embedded.seed !== undefined ? { seed: embedded.seed } : {}),
  };
  // The embedded service is a new process each run: the conversations it made are gone, so a thread
  // (or a replayed conversation) stopped midway goes on in a new one. Said, never silent.
  const conversations = previous.plan.threads > 0 || ownConversationsOf(previous.load.spec);
  if (restored.target.baseUrl === undefined && conversations) {
    warnings.push('the embedded service keeps no conversation across runs: a thread or replayed conversation stopped midway goes on in a new conversation (its earlier turns are not in its history)');
  }
  return { options: parseRunConfig(restored), warnings };
}
