// The `run` command's flags (CONTRACT.md) and their translation into RunSessionOptions.
import type { Argv } from 'yargs';
import { STREAM_DIALECTS, type StreamDialect } from '../../protocol/index.js';
import { parseShard } from '../../plan/index.js';
import type { RequestOptions } from '../../domain/suite.js';
import type { RunSessionOptions } from '../../session/options.js';
import { parseDurationMs, parseList, positive } from '../parse.js';
import { readApiKey } from '../secrets.js';
import { TOOL_VERSION } from '../version.js';
import { compareTuningOptions } from './compare.js';

/**
 * The flags of anything that sends a suite (`run`, and `estimate`'s sample): target, plan, load,
 * request, credits, output, embedded service. What only a run does (thresholds, a baseline, resume)
 * is in runFlags, so `estimate --help` lists only the flags estimate accepts.
 */
export function sendFlags<T>(y: Argv<T>) {
  return y
    .positional('suite', { type: 'string', demandOption: true, describe: 'suite file (.yaml, .yml or .csv)' })
    .option('base-url', { type: 'string', describe: 'live service base URL (env KBBENCH_BASE_URL); default: the embedded reference service', group: 'Target:' })
    .option('api-key-file', { type: 'string', describe: 'file holding the API key (else env KBBENCH_API_KEY)', group: 'Target:' })
    .option('auth', { choices: ['header', 'query'] as const, default: 'header' as const, describe: 'send the key as the x-api-key header or the api_key query parameter', group: 'Target:' })
    .option('board', { type: 'string', describe: 'board id (overrides the suite target)', group: 'Target:' })
    .option('chat', { type: 'string', describe: 'chat assistant id (overrides the suite target)', group: 'Target:' })
    .option('workspace', { type: 'string', describe: 'embedded service workspace file (default: the suite\'s, else the demo)', group: 'Target:' })
    .option('models', { type: 'string', describe: 'comma-separated models (replaces the suite\'s)', group: 'Plan:' })
    .option('repeat', { type: 'number', default: 1, describe: 'run every case and thread K times', group: 'Plan:' })
    .option('shard', { type: 'string', describe: 'run shard i of N (e.g. 2/4); merge the shards later', group: 'Plan:' })
    .option('concurrency', { type: 'number', default: 4, describe: 'closed loop: cases/threads in flight at once', group: 'Load:' })
    .option('rate', { type: 'number', describe: 'open loop: request starts per second (with --duration)', group: 'Load:' })
    .option('duration', { type: 'string', describe: 'open loop: how long to keep the rate (e.g. 60s)', group: 'Load:' })
    .option('max-in-flight', { type: 'number', describe: 'open loop: outstanding requests at most; later starts wait and are recorded late', group: 'Load:' })
    .option('timeout', { type: 'string', default: '120s', describe: 'per-request time limit (0: none)', group: 'Load:' })
    .option('retries', { type: 'number', default: 2, describe: 'retries on 429 (honouring Retry-After), 5xx and connection errors', group: 'Load:' })
    .option('stream', { type: 'boolean', describe: 'stream answers (default on; --no-stream for JSON answers)', group: 'Request:' })
    .option('method', { choices: ['post', 'get'] as const, describe: 'POST body or GET query form', group: 'Request:' })
    .option('plaintext', { type: 'boolean', describe: 'ask for plain text instead of markdown', group: 'Request:' })
    .option('include-usage', { type: 'boolean', describe: 'ask for the usage chunk when streaming (default on)', group: 'Request:' })
    .option('additional-context', { type: 'string', describe: 'extra context sent with every question', group: 'Request:' })
    .option('save-history', { type: 'boolean', describe: 'keep thread exchanges in the conversation history', group: 'Request:' })
    .option('user', { type: 'string', describe: 'user identifier sent with thread turns', group: 'Request:' })
    .option('source', { type: 'string', describe: 'source identifier sent with thread turns', group: 'Request:' })
    .option('dialect', { choices: STREAM_DIALECTS, describe: 'force a stream decoder instead of detecting the format', group: 'Request:' })
    .option('max-credits', { type: 'number', describe: 'stop before spending more than this (exit 3)', group: 'Credits:' })
    .option('min-remaining', { type: 'number', describe: 'stop before the account could fall below this (exit 3)', group: 'Credits:' })
    .option('out', { type: 'string', describe: 'run directory (default reports/<suite>-<timestamp>)', group: 'Output:' })
    .option('quiet', { type: 'boolean', default: false, describe: 'no progress, no table', group: 'Output:' })
    .option('json', { type: 'boolean', default: false, describe: 'print summary.json on stdout', group: 'Output:' })
    .option('seed', { type: 'number', describe: 'embedded service: random seed', group: 'Embedded service:' })
    .option('latency-scale', { type: 'number', describe: 'embedded service: multiply model latencies (0 answers at once)', group: 'Embedded service:' });
}

/** `run`'s flags: what any sending command takes, plus thresholds, a baseline and resume. */
export function runFlags<T>(y: Argv<T>) {
  return sendFlags(y)
    .option('threshold', { type: 'string', array: true, describe: "extra threshold, e.g. 'ttfc_ms=p(95)<2000' (repeatable)", group: 'Checks:' })
    .option('baseline', { type: 'string', describe: 'compare with an earlier run directory; exit 1 on regression', group: 'Checks:' })
    .options(compareTuningOptions('Checks:'))
    .option('resume', { type: 'string', describe: 'continue an interrupted run in its directory; nothing finished is sent again', group: 'Output:' })
    .option('filter', {
      type: 'string', array: true, group: 'Plan:',
      describe: 'run only cases/threads whose id or a tag matches: a glob (refund-*), /regex/, id:… or tag:… (repeatable: any matches)',
    })
    .option('only-failed', { type: 'string', describe: 'run only the cases and threads that failed in this earlier run directory', group: 'Plan:' });
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

const opt = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };

export function toSessionOptions(a: Record<string, unknown>, env: NodeJS.ProcessEnv, cwd: string): RunSessionOptions {
  const baseUrl = (a.baseUrl as string | undefined) ?? env.KBBENCH_BASE_URL;
  const apiKey = readApiKey(env, a.apiKeyFile as string | undefined);
  return {
    suitePath: a.suite as string,
    ...opt('baseUrl', baseUrl || undefined),
    ...opt('apiKey', apiKey),
    auth: (a.auth as 'header' | 'query') ?? 'header',
    ...opt('board', a.board as string | undefined),
    ...opt('chat', a.chat as string | undefined),
    models: parseList(a.models as string | undefined),
    repeat: positive(a.repeat as number, 'repeat', { integer: true }) ?? 1,
    concurrency: positive(a.concurrency as number, 'concurrency', { integer: true }) ?? 4,
    ...opt('rate', positive(a.rate as number | undefined, 'rate')),
    ...opt('durationMs', a.duration === undefined ? undefined : parseDurationMs(a.duration as string, 'duration')),
    ...opt('maxInFlight', positive(a.maxInFlight as number | undefined, 'max-in-flight', { integer: true })),
    requestDefaults: requestDefaults(a),
    timeoutMs: parseDurationMs(a.timeout as string, 'timeout'),
    retries: positive(a.retries as number, 'retries', { integer: true, allowZero: true }) ?? 2,
    ...opt('maxCredits', positive(a.maxCredits as number | undefined, 'max-credits', { allowZero: true })),
    ...opt('minRemaining', positive(a.minRemaining as number | undefined, 'min-remaining', { allowZero: true })),
    ...opt('shard', a.shard === undefined ? undefined : parseShard(a.shard as string)),
    ...opt('resumeDir', a.resume as string | undefined),
    ...opt('outDir', a.out as string | undefined),
    reportsRoot: `${cwd}/reports`,
    thresholdFlags: (a.threshold as string[] | undefined) ?? [],
    ...opt('filter', (a.filter as string[] | undefined)?.length ? (a.filter as string[]) : undefined),
    ...opt('onlyFailedDir', a.onlyFailed as string | undefined),
    embedded: {
      ...opt('workspacePath', a.workspace as string | undefined),
      ...opt('seed', a.seed as number | undefined),
      ...opt('latencyScale', positive(a.latencyScale as number | undefined, 'latency-scale', { allowZero: true })),
    },
    ...opt('dialect', a.dialect as StreamDialect | undefined),
    toolVersion: TOOL_VERSION,
  };
}
