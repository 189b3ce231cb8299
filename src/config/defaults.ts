// The run's defaults, declared once: the flags' --help shows them, the library and a suite get the
// same, and a resume tells a value left at its default from one the user chose.
import { DEFAULT_MAX_RETRY_WAIT_MS } from '../client/retry.js';

export const RUN_DEFAULTS = {
  /** A closed loop's units in flight (--concurrency). */
  concurrency: 4,
  repeat: 1,
  auth: 'header',
  retries: 2,
  maxRetryWaitMs: DEFAULT_MAX_RETRY_WAIT_MS,
  /** In the flags' words: --help shows them as written. */
  timeout: '120s',
  gracefulStop: '30s',
  maxRetryWait: '60s',
} as const;
