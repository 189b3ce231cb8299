// A run's config in sections, one zod schema: what a run is asked to do (config/ builds it from
// flags, a suite's blocks and the library) and what run.json keeps of it (the recorded variant,
// secrets removed). The load section's schema is config/'s: its shapes are src/load/'s.
import { z } from 'zod';
import { STREAM_DIALECTS } from '../protocol/dialects.js';
import { OUTPUT_KINDS } from './output.js';

const text = z.string({ error: 'expected text' });
const count = z.number({ error: 'expected a number' });
const texts = z.array(z.string(), { error: 'expected a list of text' });
const flag = z.boolean({ error: 'expected true or false' });

/** Who is asked: the live service (absent baseUrl: the embedded one), its key, board and chat. */
export const TargetSchema = z.object({
  baseUrl: text.optional(),
  apiKey: text.optional(),
  auth: z.enum(['header', 'query']),
  /** The header that carries the key with auth 'header' (a doctor profile's); default x-api-key. */
  apiKeyHeader: text.optional(),
  board: text.optional(),
  chat: text.optional(),
  /** Force a stream decoder instead of detecting the format. */
  dialect: z.enum(STREAM_DIALECTS).optional(),
  /** `--kb-version TEXT`: the live service's knowledge base, as the user labels it (part of an answer's key, store/answer-key.ts). */
  kbVersion: text.optional(),
});

/** What is asked: the suite (one file, several, or a traffic log that is the suite), its models, repeats and selection. */
export const PlanSectionSchema = z.object({
  suitePath: text,
  /** Several suite files run as one suite (`run a.csv b.yaml`); absent for one. */
  suitePaths: texts.optional(),
  /** `run --traffic LOG` with no suite file: `suitePath` is the log, which is the suite (load/kinds/traffic/log-suite.ts). */
  suiteIsLog: z.literal(true).optional(),
  models: texts.optional(),
  repeat: count,
  /** `--filter` patterns (ids or tags, globs or /regex/): only the cases and threads they match run. */
  filter: texts.optional(),
  /** `--only-failed RUN_DIR`: only the cases and threads that failed there run. */
  onlyFailedDir: text.optional(),
  /** One seed for arrivals, the traffic mix and the embedded service. */
  seed: count.optional(),
});

const requestOptionsSchema = z.object({
  method: z.enum(['get', 'post']).optional(), streaming: flag.optional(), plaintext: flag.optional(), include_usage: flag.optional(),
  additional_context: text.optional(), save_history: flag.optional(), user: text.optional(), source: text.optional(),
});

/** How each request is sent: the flags' request options over the suite's, its timeout, retries and the graceful stop. */
export const RequestSectionSchema = z.object({
  /** Flag overrides of the suite's request options. */
  requestDefaults: requestOptionsSchema,
  timeoutMs: count,
  retries: count,
  /** --max-retry-wait: the longest wait before a retry (runner/backoff.ts). */
  maxRetryWaitMs: count.optional(),
  /** --graceful-stop: in-flight requests get this long once the schedule ends or a stop comes, then are cut (recorded interrupted). */
  gracefulStopMs: count.optional(),
});

/** What the run may spend, and what a credit costs (`--credit-price X [--currency EUR]`). */
export const BudgetSchema = z.object({ maxCredits: count.optional(), minRemaining: count.optional(), creditPrice: count.optional(), currency: text.optional() });

/** Stop conditions: a clean stop (status aborted) at the N-th failed request, or when the failed share over the window passes the rate. */
export const StopSchema = z.object({ maxErrors: count.optional(), maxErrorRate: count.optional(), errorWindowMs: count.optional() });

/** What judges the run: `--threshold` flags (added to the suite's), `--fail-on`'s gates, the baseline's suite. */
export const GatesSchema = z.object({
  thresholdFlags: texts,
  /** `--fail-on`: the gates of the verdict (metrics/gates.ts checks the names); the default gates when absent. */
  failOn: texts.optional(),
  /** `--baseline` without --allow-different-suites: the suite must bear the baseline's name (checked before sending). */
  baselineSuite: z.object({ name: text, dir: text }).optional(),
});

/** Where the run's files and live metrics go. */
export const OutputsSchema = z.object({
  /** `--output NAME=URL` (repeatable) and the suite's `load.outputs`: live metrics to these endpoints. */
  live: z.array(z.object({ kind: z.enum(OUTPUT_KINDS), url: text })).optional(),
  outDir: text.optional(),
  /** Where `reports/<suite>-<time>` goes when --out is not given. */
  reportsRoot: text,
});

/** The embedded reference service's options (ignored with a live service). */
export const EmbeddedSchema = z.object({
  workspacePath: text.optional(),
  seed: count.optional(),
  latencyScale: count.optional(),
  dialect: z.enum(STREAM_DIALECTS).optional(),
  faultRate: count.optional(),
  /** Judge chats fail or babble at this rate (not-judged checks, end to end). */
  judgeFaultRate: count.optional(),
  rateLimitRate: count.optional(),
  retryAfterS: count.optional(),
  stallMs: count.optional(),
  stallRate: count.optional(),
  cutRate: count.optional(),
  /** Answers that had to queue for a model slot miss facts (a smaller retrieval budget). */
  degradeQuality: flag.optional(),
  /** Service-wide pause fault: every pauseEveryMs the service stops for pauseForMs. */
  pauseEveryMs: count.optional(),
  pauseForMs: count.optional(),
});

/** Who grades model-graded checks (over the suite's `grader:` block), and the `similar` checks' embeddings. */
export const GraderSectionSchema = z.object({
  chat: text.optional(),
  model: text.optional(),
  url: text.optional(),
  /** An outside grader's key (KBBENCH_GRADER_API_KEY or --grader-key-file); never recorded. */
  apiKey: text.optional(),
  /** `--grader-cache DIR` (absent with --no-grader-cache): verdicts kept and reused there. A path of this machine: not recorded. */
  cacheDir: text.optional(),
  /** --judge-sample P (0 < P ≤ 1): grade a seeded share of the answers' model-graded checks (checks/judge-sample.ts). */
  judgeSample: count.optional(),
  /** `--embeddings-url`: `similar` checks take their text score from this endpoint (the key never recorded). */
  embeddings: z.object({ baseUrl: text, model: text, apiKey: text.optional() }).optional(),
});

/** Where and when this run's part runs: client event loops, its shard, a shared start, the run it continues. */
export const PlacementSchema = z.object({
  /** --workers N: client event loops in worker threads (session/workers/); absent: the default (workers/count.ts). */
  workers: count.optional(),
  /** `--shard i/N`: a closed loop runs its part of the plan's items; an open loop its segment of the starts. */
  shard: z.object({ index: count, count }).optional(),
  /** `--start-at`: the ISO instant (with its zone) at which every shard starts its run. */
  startAt: text.optional(),
  resumeDir: text.optional(),
});

/** What run.json says of the run beyond its config: a label, the commit, the tool, the answers it reused. */
export const RecordSchema = z.object({
  /** `--label TEXT`: a name for this run (a release, a document change), kept in run.json for history. */
  label: text.optional(),
  /** The commit the run belongs to (GITHUB_SHA in GitHub Actions). */
  commit: text.optional(),
  toolVersion: text,
  /** `--reuse-answers RUN_DIR` (repeatable): earlier runs whose answers to unchanged questions are taken instead of asking again. */
  reuseAnswers: texts.optional(),
  /** `--allow-changed-suite`: a --resume may continue with a changed suite file of the same suite name. */
  allowChangedSuite: flag.optional(),
  /** What the run was for, when not a run of its own (`estimate-sample`). */
  purpose: text.optional(),
  /** A merged run: the shards' run directories. */
  mergedFrom: texts.optional(),
});

/** Every section but the load (config/run-config.ts adds it: its shapes are src/load/'s). */
export const RUN_CONFIG_SECTIONS = {
  target: TargetSchema, plan: PlanSectionSchema, request: RequestSectionSchema, budget: BudgetSchema, stop: StopSchema, gates: GatesSchema,
  outputs: OutputsSchema, embedded: EmbeddedSchema, grader: GraderSectionSchema, placement: PlacementSchema, record: RecordSchema,
};

/**
 * run.json's `config` (schema 4): the run config as recorded, secrets removed (the target's key, the
 * grader's key and cache, the embeddings' key, an output's credentials: config/run-config.ts
 * recordableConfig) and the load left out (`load.spec` holds it). Every field may be absent: a merged
 * run, an estimate's sample or an older run records fewer; each type is checked on read.
 */
export const RecordedRunConfigSchema = z.object({
  target: TargetSchema.omit({ apiKey: true }).partial().default({}),
  plan: PlanSectionSchema.partial().default({}),
  request: RequestSectionSchema.partial().default({}),
  budget: BudgetSchema.default({}),
  stop: StopSchema.default({}),
  gates: GatesSchema.omit({ baselineSuite: true }).partial().default({}),
  outputs: OutputsSchema.partial().default({}),
  embedded: EmbeddedSchema.default({}),
  grader: GraderSectionSchema.omit({ apiKey: true, cacheDir: true }).extend({ embeddings: z.object({ baseUrl: text, model: text }).optional() }).default({}),
  placement: PlacementSchema.default({}),
  record: RecordSchema.omit({ label: true }).partial().default({}),
});

export type RecordedRunConfig = z.infer<typeof RecordedRunConfigSchema>;
