// What a run session is asked to do: the `run` command's flags, parsed and typed.
import type { StreamDialect } from '../protocol/index.js';
import type { RequestOptions } from '../domain/suite.js';
import type { Shard } from '../plan/types.js';

export interface EmbeddedServiceOptions {
  workspacePath?: string;
  seed?: number;
  latencyScale?: number;
  dialect?: StreamDialect;
  faultRate?: number;
  rateLimitRate?: number;
  retryAfterS?: number;
  stallMs?: number;
  stallRate?: number;
  cutRate?: number;
}

export interface RunSessionOptions {
  suitePath: string;
  /** Live service; absent = the embedded reference service. */
  baseUrl?: string;
  apiKey?: string;
  auth: 'header' | 'query';
  board?: string;
  chat?: string;
  models?: string[];
  repeat: number;
  concurrency: number;
  /** Open loop: starts per second, for durationMs, at most maxInFlight outstanding. */
  rate?: number;
  durationMs?: number;
  maxInFlight?: number;
  /** Flag overrides of the suite's request options. */
  requestDefaults: RequestOptions;
  timeoutMs: number;
  retries: number;
  maxCredits?: number;
  minRemaining?: number;
  shard?: Shard;
  resumeDir?: string;
  outDir?: string;
  /** Where `reports/<suite>-<time>` goes when --out is not given. */
  reportsRoot: string;
  /** `--filter` patterns (ids or tags, globs or /regex/): only the cases and threads they match run. */
  filter?: string[];
  /** `--only-failed RUN_DIR`: only the cases and threads that failed there run. */
  onlyFailedDir?: string;
  /** `--threshold 'metric=expression'` flags, added to the suite's. */
  thresholdFlags: string[];
  embedded: EmbeddedServiceOptions;
  /** Force a stream decoder instead of detecting the format. */
  dialect?: StreamDialect;
  toolVersion: string;
}

/** run.json's `options`: what was asked, secrets removed (the key is never kept). */
export function recordableOptions(o: RunSessionOptions): Record<string, unknown> {
  const { apiKey: _apiKey, toolVersion: _v, ...rest } = o;
  return JSON.parse(JSON.stringify(rest)) as Record<string, unknown>;
}
