// A run's config: what a run is asked to do, typed once (the `run` command's flags, a suite's blocks and the library build it).
import type { StreamDialect } from '../protocol/index.js';
import type { RequestOptions } from '../domain/suite.js';
import type { Shard } from '../plan/types.js';
import type { Gate } from '../metrics/gates.js';
import type { LoadSpec } from '../domain/load.js';
import type { RecordedOptions } from '../domain/run.js';
import type { LoadInput } from '../load/index.js';
import type { OutputSpec } from '../domain/output.js';
import { recordableOutputs } from '../outputs/spec.js';

export interface EmbeddedServiceOptions {
  workspacePath?: string;
  seed?: number;
  latencyScale?: number;
  dialect?: StreamDialect;
  faultRate?: number;
  /** Judge chats fail or babble at this rate (not-judged checks, end to end). */
  judgeFaultRate?: number;
  rateLimitRate?: number;
  retryAfterS?: number;
  stallMs?: number;
  stallRate?: number;
  cutRate?: number;
  /** Answers that had to queue for a model slot miss facts (a smaller retrieval budget). */
  degradeQuality?: boolean;
  /** Service-wide pause fault: every pauseEveryMs the service stops for pauseForMs. */
  pauseEveryMs?: number;
  pauseForMs?: number;
}

export interface RunConfig {
  /** The suite file; with `suitePaths`, the first of several run as one suite. */
  suitePath: string;
  /** Several suite files run as one suite (`run a.csv b.yaml`); absent for one. */
  suitePaths?: string[];
  /** `run --traffic LOG` with no suite file: `suitePath` is the log, which is the suite (load/kinds/traffic/log-suite.ts). */
  suiteIsLog?: true;
  /** Live service; absent = the embedded reference service. */
  baseUrl?: string;
  apiKey?: string;
  auth: 'header' | 'query';
  /** The header that carries the key with auth 'header' (a doctor profile's); default x-api-key. */
  apiKeyHeader?: string;
  board?: string;
  chat?: string;
  models?: string[];
  repeat: number;
  /** --workers N: client event loops in worker threads (session/workers/); absent: the default (workers/count.ts). */
  workers?: number;
  /** --graceful-stop: in-flight requests get this long once the schedule ends or a stop comes, then are cut (recorded interrupted). */
  gracefulStopMs?: number;
  /** One seed for arrivals, the traffic mix and the embedded service. */
  seed?: number;
  /** --judge-sample P (0 < P ≤ 1): grade a seeded share of the answers' model-graded checks (checks/judge-sample.ts). */
  judgeSample?: number;
  /** Stop conditions: a clean stop (status aborted) at the N-th failed request, or when the failed share over the window passes the rate. */
  maxErrors?: number;
  maxErrorRate?: number;
  errorWindowMs?: number;
  /** Flag overrides of the suite's request options. */
  requestDefaults: RequestOptions;
  timeoutMs: number;
  retries: number;
  /** --max-retry-wait: the longest wait before a retry (runner/backoff.ts); default 60 s. */
  maxRetryWaitMs?: number;
  maxCredits?: number;
  minRemaining?: number;
  /** `--shard i/N`: a closed loop runs its part of the plan's items; an open loop its segment of the starts. */
  /** `--credit-price X [--currency EUR]`: money beside credits in summary.json and report.html. */
  creditPrice?: number;
  currency?: string;
  shard?: Shard;
  /** `--start-at`: the ISO instant (with its zone) at which every shard starts its run. */
  startAt?: string;
  resumeDir?: string;
  outDir?: string;
  /** Where `reports/<suite>-<time>` goes when --out is not given. */
  reportsRoot: string;
  /** `--filter` patterns (ids or tags, globs or /regex/): only the cases and threads they match run. */
  filter?: string[];
  /** `--only-failed RUN_DIR`: only the cases and threads that failed there run. */
  onlyFailedDir?: string;
  /** `--reuse-answers RUN_DIR` (repeatable): earlier runs whose answers to unchanged questions are taken instead of asking again. */
  reuseAnswers?: string[];
  /** `--kb-version TEXT`: the live service's knowledge base, as the user labels it (part of an answer's key, store/answer-key.ts). */
  kbVersion?: string;
  /** `--embeddings-url`: `similar` checks take their text score from this endpoint (the key never recorded). */
  embeddings?: { baseUrl: string; model: string; apiKey?: string };
  /** `--baseline` without --allow-different-suites: the suite must bear the baseline's name (checked before sending). */
  baselineSuite?: { name: string; dir: string };
  /** `--threshold 'metric=expression'` flags, added to the suite's. */
  thresholdFlags: string[];
  embedded: EmbeddedServiceOptions;
  /** Force a stream decoder instead of detecting the format. */
  dialect?: StreamDialect;
  /** `--fail-on`: the gates of the verdict (metrics/gates.ts); the default gates when absent. */
  failOn?: Gate[];
  /** `--allow-changed-suite`: a --resume may continue with a changed suite file of the same suite name. */
  allowChangedSuite?: boolean;
  /** `--label TEXT`: a name for this run (a release, a document change), recorded in run.json for history. */
  label?: string;
  /** The commit the run belongs to (GITHUB_SHA in GitHub Actions), recorded in run.json for history. */
  commit?: string;
  toolVersion: string;
  /** `--grader-chat`, `--grader-model`, `--grader-url`: the run's grader, over the suite's `grader:` block. */
  graderChat?: string;
  graderModel?: string;
  graderUrl?: string;
  /** An outside grader's key (KBBENCH_GRADER_API_KEY or --grader-key-file); never recorded. */
  graderApiKey?: string;
  /**
   * `--grader-cache DIR` (default the user's cache directory; absent with --no-grader-cache): model-graded
   * verdicts kept and reused there (graders/verdict-cache.ts). A path of this machine: not recorded.
   */
  graderCacheDir?: string;
  /** `--output NAME=URL` (repeatable) and the suite's `load.outputs`: live metrics to these endpoints. */
  outputs?: OutputSpec[];
  /**
   * The run's load (one section): as the flags ask it, the suite's `load:` block under them, until
   * prepareRun builds its spec (src/load/); a derived run (confirm's re-asks, estimate's sample)
   * replaces the whole section with a spec of its own, never a list of fields to clear.
   */
  load: LoadSection;
}

/** The load fields as asked (src/load/'s input: the same for flags and a suite's `load:` block). */
export type LoadAsked = Omit<LoadInput, 'shard' | 'resume'>;

/** As asked (merged over the suite's `load:` block when prepared), or a spec fixed whole. */
export type LoadSection = { asked: LoadAsked } | { spec: LoadSpec };

/** run.json's `options`: the config as asked, secrets removed (the key is never kept). */
export function recordableOptions(o: RunConfig): RecordedOptions {
  // The load is recorded as run.json's `load.spec`, typed, not as option fields to be cast.
  const { apiKey: _apiKey, graderApiKey: _graderKey, graderCacheDir: _cache, toolVersion: _v, embeddings, baselineSuite: _baseline, load: _load, label: _label, ...rest } = o;
  const kept: Pick<RecordedOptions, 'embeddings' | 'outputs'> = {
    ...(embeddings ? { embeddings: { baseUrl: embeddings.baseUrl, model: embeddings.model } } : {}),
    // An endpoint's user and password are sent, never recorded.
    ...(rest.outputs ? { outputs: recordableOutputs(rest.outputs) } : {}),
  };
  const recorded: RecordedOptions = { ...rest, ...kept };
  // As JSON holds it: no undefined fields.
  return JSON.parse(JSON.stringify(recorded)) as RecordedOptions;
}
