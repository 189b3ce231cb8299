// The run's defaults, declared once: the flags' --help shows them, the library and a suite get the
// same, and a resume tells a value left at its default from one the user chose.
import { DEFAULT_MAX_RETRY_WAIT_MS } from '../client/retry.js';
import type { RunConfig } from './run-config.js';

export const RUN_DEFAULTS = {
  /** A closed loop's units in flight (--concurrency). */
  concurrency: 4,
  repeat: 1,
  auth: 'header',
  retries: 2,
  maxRetryWaitMs: DEFAULT_MAX_RETRY_WAIT_MS,
  timeoutMs: 120_000,
  /** In the flags' words: --help shows them as written. */
  timeout: '120s',
  gracefulStop: '30s',
  maxRetryWait: '60s',
} as const;

/** Every section at its defaults, for `suitePath` (the flags, validate and the tests' configs start here). */
export function defaultRunConfig(plan: RunConfig['plan'] | string, toolVersion: string): RunConfig {
  return {
    target: { auth: RUN_DEFAULTS.auth },
    plan: typeof plan === 'string' ? { suitePath: plan, repeat: RUN_DEFAULTS.repeat } : plan,
    load: { asked: { concurrency: RUN_DEFAULTS.concurrency } },
    request: { requestDefaults: {}, timeoutMs: RUN_DEFAULTS.timeoutMs, retries: RUN_DEFAULTS.retries, maxRetryWaitMs: RUN_DEFAULTS.maxRetryWaitMs },
    budget: {}, stop: {}, gates: { thresholdFlags: [] }, outputs: { reportsRoot: 'reports' }, embedded: {}, grader: {}, placement: {},
    record: { toolVersion },
  };
}
