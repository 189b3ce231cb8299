// The `run` command's flags (CONTRACT.md) and their translation into RunConfig.
import type { Argv } from 'yargs';
import { suitePathsOf, type SuitePaths } from './suite-paths.js';
import { STREAM_DIALECTS, type StreamDialect } from '../../protocol/dialects.js';
import { parseShard } from '../../plan/shard.js';
import { endpointUrlProblem } from '../../client/redact.js';
import { InputError } from '../../domain/errors.js';
import { parseStartAt, wallClockMs } from '../../session/start-at.js';
import type { RequestOptions } from '../../domain/suite.js';
import type { LoadAsked, RunConfig, RunConfigInput } from '../../config/run-config.js';
import { RUN_DEFAULTS } from '../../config/defaults.js';
import { parseDurationMs, parseFraction, parseList, positive } from '../parse.js';
import { readApiKey } from '../secrets.js';
import { graderCacheFlags, graderFlags, graderSection } from './grader-flags.js';
import { TOOL_VERSION } from '../version.js';
import { ARRIVAL_KINDS, parseStages, type ArrivalKind } from '../../runner/arrivals.js';
import { MIX_KINDS, type MixKind } from '../../runner/mix.js';
import { compareTuningOptions } from './compare-flags.js';
import { parseFailOn } from '../../metrics/gates.js';
import { parseOutputSpec } from '../../outputs/spec.js';
import type { OutputSpec } from '../../domain/output.js';
import { MAX_SWEEP_RATES, SWEEP_PROBE_MAX_MS, SWEEP_SATURATION_WORKERS } from '../../load/kinds/sweep/limits.js';

/**
 * The flags of anything that sends a suite (`run`, and `estimate`'s sample): target, plan, load,
 * request, credits, output, embedded service. What only a run does (thresholds, a baseline, resume)
 * is in runFlags, so `estimate --help` lists only the flags estimate accepts.
 */
export function sendFlags<T>(y: Argv<T>) {
  return y
    .positional('suite', { type: 'string', describe: 'suite file (.yaml, .yml or .csv); `run` takes several, run as one suite' })
    .option('base-url', { type: 'string', describe: 'live service base URL (env KBBENCH_BASE_URL); default: the embedded reference service', group: 'Target:' })
    .option('api-key-file', { type: 'string', describe: 'file holding the API key (else env KBBENCH_API_KEY)', group: 'Target:' })
    .option('auth', { choices: ['header', 'query'] as const, describe: 'send the key as the x-api-key header (the default) or the api_key query parameter', group: 'Target:' })
    .option('board', { type: 'string', describe: 'board id (overrides the suite target)', group: 'Target:' })
    .option('chat', { type: 'string', describe: 'chat assistant id (overrides the suite target)', group: 'Target:' })
    .option('workspace', { type: 'string', describe: 'embedded service workspace file (default: the suite\'s, else the demo)', group: 'Target:' })
    .option('models', { type: 'string', describe: 'comma-separated models (replaces the suite\'s)', group: 'Plan:' })
    .option('repeat', { type: 'number', default: RUN_DEFAULTS.repeat, describe: 'run every case and thread K times', group: 'Plan:' })
    .option('shard', { type: 'string', describe: 'run shard i of N (e.g. 2/4; auto/N: i from JOB_COMPLETION_INDEX + 1); with --rate, its segment of the total rate; merge the shards later', group: 'Plan:' })
    .option('start-at', { type: 'string', describe: 'start at this ISO instant (e.g. 2026-11-23T02:00:00Z), so shards start together; past by over 1s: exit 2', group: 'Load:' })
    .option('concurrency', { type: 'number', default: RUN_DEFAULTS.concurrency, describe: 'closed loop: cases/threads in flight at once', group: 'Load:' })
    .option('rate', { type: 'number', describe: 'open loop: starts per second (a start is a case, or a whole thread), with --duration', group: 'Load:' })
    .option('duration', { type: 'string', describe: 'open loop: how long to keep the rate (e.g. 60s)', group: 'Load:' })
    .option('stages', { type: 'string', describe: "open loop, ramping: duration:target starts/s, each stage ramping linearly from the last (e.g. 30s:5,1m:20,30s:0)", group: 'Load:' })
    .option('sweep', { type: 'number', describe: `find the rate the service sustains (GuideLLM sweep): probe one at a time and at saturation (--max-in-flight, else ${SWEEP_SATURATION_WORKERS} workers; each probe at most ${SWEEP_PROBE_MAX_MS / 1000}s), then N constant rates between them (at most ${MAX_SWEEP_RATES}), each for --duration`, group: 'Load:' })
    .option('slo', { type: 'string', array: true, describe: "with --sweep: a service-level objective in the threshold grammar, judged per rate (repeatable), e.g. 'ttfc_ms=p(95)<2000' or 'pass_rate=rate>0.9'", group: 'Load:' })
    .option('concurrency-stages', { type: 'string', describe: 'closed loop, ramping (k6 ramping-vus): duration:workers stages from 0, cycling through the plan until they end (e.g. 30s:4,1m:16,30s:0)', group: 'Load:' })
    .option('start-rate', { type: 'number', describe: 'open loop: the rate --stages ramps from (default 0)', group: 'Load:' })
    .option('arrival', { choices: ARRIVAL_KINDS, describe: 'open loop: evenly spaced starts (constant, the default) or Poisson arrivals at the same mean rate (seeded by --seed)', group: 'Load:' })
    .option('warmup', { type: 'string', describe: 'requests started in this first stretch (e.g. 30s) are sent and recorded (warmup: true) but left out of statistics and thresholds', group: 'Load:' })
    .option('mix', { choices: MIX_KINDS, describe: 'time-bound runs: which case or thread each start draws: the plan in order (sequential, the default), shuffled each pass, or weighted by a case\'s or thread\'s `weight` (seeded by --seed)', group: 'Load:' })
    .option('max-in-flight', { type: 'number', describe: 'open loop: outstanding requests at most (default: the larger of --concurrency and 64); later starts are held, sent late, and past 1 s late or never sent they count as dropped (a failing gate)', group: 'Load:' })
    .option('traffic', { type: 'string', describe: 'replay a traffic log (JSONL or CSV: at, prompt, conversation, model, additional_context, user, source, expected): each record at its recorded instant, a conversation\'s turns never before the previous answer', group: 'Load:' })
    .option('time-scale', { type: 'number', describe: '--traffic: replay this many times faster (2 = in half the time)', group: 'Load:' })
    .option('traffic-rate', { type: 'number', describe: '--traffic: scale the log to this mean rate (requests per second), keeping its shape', group: 'Load:' })
    .option('loop', { type: 'boolean', describe: '--traffic: replay the log again after its end until --duration is over', group: 'Load:' })
    .option('traffic-window', { type: 'string', describe: '--traffic: the stages\' length, in recorded time (default 1m)', group: 'Load:' })
    .option('workers', { type: 'number', describe: 'client event loops in worker threads, each running its share of the load, joined into one run directory (autocannon); default 1 for a closed loop under 256 --concurrency, else the cores free beside the service when it runs on this machine (embedded, or a loopback --base-url)', group: 'Load:' })
    .option('graceful-stop', { type: 'string', default: RUN_DEFAULTS.gracefulStop, describe: 'time-bound runs and stops: how long requests in flight get once the schedule ends (or a stop comes) before they are cut, recorded as interrupted (k6)', group: 'Load:' })
    .option('timeout', { type: 'string', default: RUN_DEFAULTS.timeout, describe: 'per-request time limit (0: none)', group: 'Load:' })
    .option('retries', { type: 'number', default: RUN_DEFAULTS.retries, describe: 'retries on 429 (honouring Retry-After), 5xx and connection errors', group: 'Load:' })
    .option('max-retry-wait', { type: 'string', default: RUN_DEFAULTS.maxRetryWait, describe: 'longest wait before a retry; a longer Retry-After ends that request\'s retries (recorded as rate limited)', group: 'Load:' })
    .option('stream', { type: 'boolean', describe: 'stream answers (default on; --no-stream for JSON answers)', group: 'Request:' })
    .option('method', { choices: ['post', 'get'] as const, describe: 'POST body or GET query form', group: 'Request:' })
    .option('plaintext', { type: 'boolean', describe: 'ask for plain text instead of markdown', group: 'Request:' })
    .option('include-usage', { type: 'boolean', describe: 'ask for the usage chunk when streaming (default on)', group: 'Request:' })
    .option('additional-context', { type: 'string', describe: 'extra context sent with every question', group: 'Request:' })
    .option('save-history', { type: 'boolean', describe: 'keep thread exchanges in the conversation history', group: 'Request:' })
    .option('user', { type: 'string', describe: 'user identifier sent with thread turns', group: 'Request:' })
    .option('source', { type: 'string', describe: 'source identifier sent with thread turns', group: 'Request:' })
    .option('embeddings-url', { type: 'string', describe: 'similar checks: text score from an OpenAI-compatible embeddings endpoint at this base URL (e.g. http://127.0.0.1:8080/v1; key from env KBBENCH_EMBEDDINGS_API_KEY, else KBBENCH_GRADER_API_KEY); default: lexical, no network', group: 'Checks:' })
    .option('embeddings-model', { type: 'string', describe: 'with --embeddings-url: the embedding model (default text-embedding-3-small)', group: 'Checks:' })
    .option('dialect', { choices: STREAM_DIALECTS, describe: 'force a stream decoder instead of detecting the format', group: 'Request:' })
    .option('max-credits', { type: 'number', describe: 'stop before spending more than this (exit 3)', group: 'Credits:' })
    .option('credit-price', { type: 'number', describe: 'price of one credit: summary.json and report.html show money too', group: 'Credits:' })
    .option('currency', { type: 'string', describe: 'the currency of --credit-price (e.g. EUR), only echoed', group: 'Credits:' })
    .option('min-remaining', { type: 'number', describe: 'stop before the account could fall below this (exit 3)', group: 'Credits:' })
    .option('out', { type: 'string', describe: 'run directory (default reports/<suite>-<timestamp>)', group: 'Output:' })
    .option('output', { type: 'string', array: true, describe: 'live metrics of every closed second to NAME=URL (repeatable), e.g. prometheus-rw=http://127.0.0.1:9090/api/v1/write or otlp=http://127.0.0.1:4318; a dead endpoint costs the run nothing (docs/live-metrics.md)', group: 'Output:' })
    .option('quiet', { type: 'boolean', default: false, describe: 'print the verdict line and the report path only', group: 'Output:' })
    .option('json', { type: 'boolean', default: false, describe: 'print summary.json on stdout', group: 'Output:' })
    .option('seed', { type: 'number', describe: 'one seed for Poisson arrivals, the traffic mix and the embedded service', group: 'Load:' })
    .option('judge-sample', { type: 'number', describe: 'grade model-graded checks on a seeded share P of the answers (0 < P ≤ 1, by --seed), so a long load test\'s grader spend stays bounded; the others are not judged (never passed), and pass rates and goodput say the share', group: 'Checks:' })
    .option('latency-scale', { type: 'number', describe: 'embedded service: multiply model latencies (0 answers at once, no capacity limit)', group: 'Embedded service:' })
    .option('degrade-quality', { type: 'boolean', describe: 'embedded service: answers that queued for a model slot miss facts', group: 'Embedded service:' })
    .option('pause-every', { type: 'string', describe: 'embedded service: pause it whole this often (e.g. 10s, with --pause-for)', group: 'Embedded service:' })
    .option('pause-for', { type: 'string', describe: 'embedded service: length of each pause (e.g. 1s)', group: 'Embedded service:' })
    .option('judge-fault-rate', { type: 'number', describe: 'embedded service: share of judge-chat answers that fail or babble (not-judged checks, for testing)', group: 'Embedded service:' })
    .options(graderFlags('Grader:'))
    .options(graderCacheFlags('Grader:'));
}

/** Who grades model-graded checks: over the suite's `grader:` block (a CSV suite has no other way). */
// The --grader-* flags live in grader-flags.ts (validate loads them without this module's imports).
export { graderCacheFlags, graderCacheOptions, graderFlags, graderOptions } from './grader-flags.js';

/** `run`'s flags: what any sending command takes, plus thresholds, a baseline and resume. */
export function runFlags<T>(y: Argv<T>) {
  return sendFlags(y)
    .option('profile', { type: 'string', describe: 'a doctor.json (kbbench doctor): its key form and stream dialect; warns once when the service behaves otherwise', group: 'Target:' })
    .option('threshold', { type: 'string', array: true, describe: "extra threshold, e.g. 'ttfc_ms=p(95)<2000' (repeatable); add ';abortOnFail' (and ';delayAbortEval=10s') to stop the run when it fails", group: 'Checks:' })
    .option('max-errors', { type: 'number', describe: 'stop cleanly at the N-th failed request (status aborted, exit 3)', group: 'Checks:' })
    .option('max-error-rate', { type: 'string', describe: 'stop cleanly when the failed share of the last --error-window of results passes this (e.g. 10% or 0.1; needs 10 results in the window)', group: 'Checks:' })
    .option('error-window', { type: 'string', describe: 'the sliding window of --max-error-rate (default 10s)', group: 'Checks:' })
    .option('baseline', { type: 'string', describe: 'compare with an earlier run directory; exit 1 on regression', group: 'Checks:' })
    .option('label', { type: 'string', describe: 'a label for this run (a release, a document change), recorded in run.json; kbbench history shows it', group: 'Output:' })
    .options(compareTuningOptions('Checks:'))
    .option('confirm', { type: 'number', describe: 'with --baseline: re-ask each pass → fail item N more times; it fails only if every re-ask fails', group: 'Checks:' })
    .option('resume', { type: 'string', describe: 'continue an interrupted run in its directory; nothing finished is sent again', group: 'Output:' })
    .option('allow-changed-suite', { type: 'boolean', describe: 'with --resume: continue although the suite file changed (same suite name); see README', group: 'Output:' })
    .option('filter', {
      type: 'string', array: true, group: 'Plan:',
      describe: 'run only cases/threads whose id or a tag matches: a glob (refund-*), /regex/, id:… or tag:… (repeatable: any matches)',
    })
    .option('only-failed', { type: 'string', describe: 'run only the cases and threads that failed in this earlier run directory', group: 'Plan:' })
    .option('reuse-answers', {
      type: 'string', array: true, group: 'Plan:',
      describe: 'take the answers to unchanged questions from this earlier run directory instead of asking (repeatable); checks judge them again',
    })
    .option('kb-version', { type: 'string', describe: "a label for the live service's knowledge base (e.g. docs-2026-11-28); answers are reused only under the same label", group: 'Target:' });
}

/** `--reuse-answers DIR` (repeatable): each given once, never empty. */
function reuseDirsOf(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const dirs = (Array.isArray(value) ? value : [value]).map(String);
  if (dirs.some((d) => d.trim() === '')) throw new InputError('expected a run directory, got an empty value', { field: '--reuse-answers' });
  return dirs.length > 0 ? [...new Set(dirs)] : undefined;
}

/** `--kb-version TEXT`: a label, never blank (a blank label would match every other blank one). */
function kbVersionOf(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const label = String(value).trim();
  if (label === '') throw new InputError('expected a label for the knowledge base, got an empty value', { field: '--kb-version' });
  return label;
}


function wholeStages<T extends { targetPerS: number }>(stages: T[]): T[] {
  for (const s of stages) if (!Number.isInteger(s.targetPerS)) throw new InputError(`a number of workers is whole, got ${s.targetPerS}`, { field: '--concurrency-stages' });
  return stages;
}

/** --judge-sample P: a share in (0, 1]; 0 would judge nothing, over 1 is no share. */
function judgeShareOf(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !(value > 0 && value <= 1)) throw new InputError(`expected a share P with 0 < P ≤ 1 (e.g. 0.25), got ${String(value)}`, { field: '--judge-sample' });
  return value;
}

function seedOf(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new InputError(`expected a whole number, got ${String(value)}`, { field: '--seed' });
  return value;
}

function requestDefaults(a: Record<string, unknown>): RequestOptions {
  const o: RequestOptions = {};
  if (typeof a.stream === 'boolean') o.streaming = a.stream;
  if (a.method === 'post' || a.method === 'get') o.method = a.method;
  if (typeof a.plaintext === 'boolean') o.plaintext = a.plaintext;
  if (typeof a.includeUsage === 'boolean') o.include_usage = a.includeUsage;
  if (typeof a.additionalContext === 'string') o.additional_context = a.additionalContext;
  if (typeof a.saveHistory === 'boolean') o.save_history = a.saveHistory;
  if (typeof a.user === 'string') o.user = a.user;
  if (typeof a.source === 'string') o.source = a.source;
  return o;
}

/** The longest --max-retry-wait: a day (well inside the timer's range, 24.8 days). */
const MAX_RETRY_WAIT_LIMIT_MS = 24 * 3600_000;

function maxRetryWaitMs(value: string | undefined): number {
  const ms = parseDurationMs(value ?? RUN_DEFAULTS.maxRetryWait, 'max-retry-wait');
  if (ms > MAX_RETRY_WAIT_LIMIT_MS) throw new InputError(`expected at most 24h, got "${value}"`, { field: '--max-retry-wait' });
  return ms;
}

const opt = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };

/** `--pause-every` with `--pause-for`, the pause shorter than the period (else nothing would ever answer). */
function pauseFlags(a: Record<string, unknown>): { pauseEveryMs?: number; pauseForMs?: number } {
  if (a.pauseEvery === undefined && a.pauseFor === undefined) return {};
  const everyMs = a.pauseEvery === undefined ? 0 : parseDurationMs(a.pauseEvery as string, 'pause-every');
  const forMs = a.pauseFor === undefined ? 0 : parseDurationMs(a.pauseFor as string, 'pause-for');
  if (forMs <= 0 || forMs >= everyMs) {
    throw new InputError('a pause needs --pause-every and a shorter --pause-for (e.g. --pause-every 10s --pause-for 1s)', { field: '--pause-for' });
  }
  return { pauseEveryMs: everyMs, pauseForMs: forMs };
}

/** Checked now (before any service starts), kept as the normalised ISO instant; the session waits for it. */
function startAtFlag(value: unknown): string {
  return new Date(parseStartAt(String(value), wallClockMs())).toISOString();
}

/** `--embeddings-url` (and model): a URL it can parse, or exit 2 naming the flag. */
function embeddingsOf(a: Record<string, unknown>, env: NodeJS.ProcessEnv): RunConfig['grader']['embeddings'] {
  if (a.embeddingsUrl === undefined) {
    if (a.embeddingsModel !== undefined) throw new InputError('--embeddings-model needs --embeddings-url', { field: '--embeddings-model' });
    return undefined;
  }
  const baseUrl = String(a.embeddingsUrl);
  const problem = endpointUrlProblem(baseUrl, 'http://127.0.0.1:8080/v1');
  if (problem !== null) throw new InputError(problem, { field: '--embeddings-url' });
  const apiKey = (env.KBBENCH_EMBEDDINGS_API_KEY ?? env.KBBENCH_GRADER_API_KEY)?.trim();
  return { baseUrl, model: typeof a.embeddingsModel === 'string' ? a.embeddingsModel : DEFAULT_EMBEDDINGS_MODEL, ...(apiKey ? { apiKey } : {}) };
}

const DEFAULT_EMBEDDINGS_MODEL = 'text-embedding-3-small';

/** `--output NAME=URL` (repeatable): each checked now, before anything is sent. */
function outputsOf(value: unknown): OutputSpec[] | undefined {
  if (value === undefined) return undefined;
  const list = (Array.isArray(value) ? value : [value]).map(String);
  return list.map((text) => {
    const parsed = parseOutputSpec(text);
    if ('error' in parsed) throw new InputError(parsed.error, { field: '--output' });
    return parsed.spec;
  });
}

/** The load flags, in the load's own terms (src/load/ turns them into a spec once the suite is read). */
function loadAskedOf(a: Record<string, unknown>): LoadAsked {
  return {
    concurrency: positive(a.concurrency as number, 'concurrency', { integer: true }) ?? RUN_DEFAULTS.concurrency,
    ...opt('rate', positive(a.rate as number | undefined, 'rate')),
    ...opt('durationMs', a.duration === undefined ? undefined : parseDurationMs(a.duration as string, 'duration')),
    ...opt('stages', a.stages === undefined ? undefined : parseStages(String(a.stages), (v) => parseDurationMs(v, 'stages'))),
    ...opt('sweep', positive(a.sweep as number | undefined, 'sweep', { integer: true })),
    ...opt('slo', (a.slo as string[] | undefined)?.length ? (a.slo as string[]) : undefined),
    ...opt('concurrencyStages', a.concurrencyStages === undefined ? undefined : wholeStages(parseStages(String(a.concurrencyStages), (v) => parseDurationMs(v, 'concurrency-stages'), '--concurrency-stages'))),
    ...opt('startRate', positive(a.startRate as number | undefined, 'start-rate', { allowZero: true })),
    ...opt('arrival', a.arrival as ArrivalKind | undefined),
    ...opt('mix', a.mix as MixKind | undefined),
    ...opt('warmupMs', a.warmup === undefined ? undefined : parseDurationMs(a.warmup as string, 'warmup')),
    ...opt('maxInFlight', positive(a.maxInFlight as number | undefined, 'max-in-flight', { integer: true })),
    ...opt('timeScale', positive(a.timeScale as number | undefined, 'time-scale')),
    ...opt('trafficRate', positive(a.trafficRate as number | undefined, 'traffic-rate')),
    ...opt('loop', a.loop === true ? true : undefined),
    ...opt('trafficWindowMs', a.trafficWindow === undefined ? undefined : parseDurationMs(a.trafficWindow as string, 'traffic-window')),
  };
}

/** The flags as the run config (the only map from flag names to the config's sections), checked by its schema. */
/**
 * The run config the flags ask for, before the schema's parse (run-config-of.ts parses it): `run --help`
 * loads this module for its flags, and the schema (zod) only when a run starts.
 */
export function runConfigInputOf(a: Record<string, unknown>, env: NodeJS.ProcessEnv, cwd: string, resumed?: SuitePaths): RunConfigInput {
  const baseUrl = (a.baseUrl as string | undefined) ?? env.KBBENCH_BASE_URL;
  const apiKey = readApiKey(env, a.apiKeyFile as string | undefined);
  return {
    target: {
      ...opt('baseUrl', baseUrl || undefined),
      ...opt('apiKey', apiKey),
      auth: (a.auth as 'header' | 'query') ?? RUN_DEFAULTS.auth,
      ...opt('board', a.board as string | undefined),
      ...opt('chat', a.chat as string | undefined),
      ...opt('dialect', a.dialect as StreamDialect | undefined),
      ...opt('kbVersion', kbVersionOf(a.kbVersion)),
    },
    plan: {
      ...suitePathsOf(a.suite, typeof a.traffic === 'string' ? a.traffic : undefined, resumed),
      models: parseList(a.models as string | undefined),
      repeat: positive(a.repeat as number, 'repeat', { integer: true }) ?? RUN_DEFAULTS.repeat,
      ...opt('seed', seedOf(a.seed)),
      ...opt('filter', (a.filter as string[] | undefined)?.length ? (a.filter as string[]) : undefined),
      ...opt('onlyFailedDir', a.onlyFailed as string | undefined),
    },
    load: { asked: loadAskedOf(a) },
    request: {
      requestDefaults: requestDefaults(a),
      timeoutMs: parseDurationMs(a.timeout as string, 'timeout'),
      retries: positive(a.retries as number, 'retries', { integer: true, allowZero: true }) ?? RUN_DEFAULTS.retries,
      maxRetryWaitMs: maxRetryWaitMs(a.maxRetryWait as string | undefined),
      ...opt('gracefulStopMs', a.gracefulStop === undefined ? undefined : parseDurationMs(a.gracefulStop as string, 'graceful-stop')),
    },
    budget: {
      ...opt('maxCredits', positive(a.maxCredits as number | undefined, 'max-credits', { allowZero: true })),
      ...opt('minRemaining', positive(a.minRemaining as number | undefined, 'min-remaining', { allowZero: true })),
      ...opt('creditPrice', positive(a.creditPrice as number | undefined, 'credit-price', { allowZero: true })),
      ...opt('currency', typeof a.currency === 'string' ? a.currency : undefined),
    },
    stop: {
      ...opt('maxErrors', positive(a.maxErrors as number | undefined, 'max-errors', { integer: true })),
      ...opt('maxErrorRate', parseFraction(a.maxErrorRate as string | undefined, 'max-error-rate')),
      ...opt('errorWindowMs', a.errorWindow === undefined ? undefined : parseDurationMs(a.errorWindow as string, 'error-window')),
    },
    gates: {
      thresholdFlags: (a.threshold as string[] | undefined) ?? [],
      ...opt('failOn', parseFailOn(a.failOn as string | undefined)),
    },
    outputs: {
      ...opt('live', outputsOf(a.output)),
      ...opt('outDir', a.out as string | undefined),
      reportsRoot: `${cwd}/reports`,
    },
    embedded: {
      ...opt('workspacePath', a.workspace as string | undefined),
      ...opt('seed', seedOf(a.seed)),
      ...opt('latencyScale', positive(a.latencyScale as number | undefined, 'latency-scale', { allowZero: true })),
      ...opt('degradeQuality', a.degradeQuality as boolean | undefined),
      ...opt('judgeFaultRate', parseFraction(a.judgeFaultRate === undefined ? undefined : String(a.judgeFaultRate), 'judge-fault-rate')),
      ...pauseFlags(a),
    },
    grader: {
      ...graderSection(a, env, cwd),
      ...opt('judgeSample', judgeShareOf(a.judgeSample)),
      ...opt('embeddings', embeddingsOf(a, env)),
    },
    placement: {
      ...opt('workers', positive(a.workers as number | undefined, 'workers', { integer: true })),
      ...opt('shard', a.shard === undefined ? undefined : parseShard(a.shard as string, env.JOB_COMPLETION_INDEX)),
      ...opt('startAt', a.startAt === undefined ? undefined : startAtFlag(a.startAt)),
      ...opt('resumeDir', a.resume as string | undefined),
    },
    record: {
      ...opt('label', typeof a.label === 'string' && a.label !== '' ? a.label : undefined),
      ...opt('commit', env.GITHUB_SHA ? env.GITHUB_SHA : undefined),
      toolVersion: TOOL_VERSION,
      ...opt('reuseAnswers', reuseDirsOf(a.reuseAnswers)),
      ...(a.allowChangedSuite === true ? { allowChangedSuite: true } : {}),
    },
  };
}
