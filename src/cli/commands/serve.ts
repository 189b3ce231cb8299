// `kbbench serve`: the embedded reference service on its own, for curl, demos and other tools.
import { serveUntilStopped } from '../signals.js';
import type { CommandModule } from 'yargs';
import { InputError } from '../../domain/errors.js';
import { STREAM_DIALECTS } from '../../protocol/index.js';
import { describeService, ServiceOptionsError, startReferenceService, WorkspaceError, type Recording, type ServiceOptions } from '../../server/index.js';
import { EXIT, type ExitCode } from '../exit.js';
import { parseDurationMs } from '../parse.js';
import type { CliIo } from '../io.js';

function serviceOptions(a: Record<string, unknown>): ServiceOptions {
  const pick = (flag: string, key: keyof ServiceOptions): Partial<ServiceOptions> => (a[flag] === undefined ? {} : { [key]: a[flag] });
  return {
    host: a.host as string,
    port: a.port as number,
    ...pick('workspace', 'workspacePath'),
    ...pick('seed', 'seed'),
    ...pick('dialect', 'dialect'),
    ...pick('latencyScale', 'latencyScale'),
    ...pick('crlf', 'crlf'),
    ...pick('splitWrites', 'splitWrites'),
    ...pick('maxInFlight', 'maxInFlight'),
    ...pick('faultRate', 'faultRate'),
    ...pick('judgeFaultRate', 'judgeFaultRate'),
    ...pick('rateLimitRate', 'rateLimitRate'),
    ...pick('retryAfter', 'retryAfterS'),
    ...pick('stallMs', 'stallMs'),
    ...pick('usageRemaining', 'usageRemaining'),
    ...pick('stallRate', 'stallRate'),
    ...pick('cutRate', 'cutRate'),
    ...pick('html502Rate', 'html502Rate'),
    ...pick('slots', 'slots'),
    ...pick('queueLimit', 'queueLimit'),
    ...pick('overloadStatus', 'overloadStatus'),
    ...pick('degradeQuality', 'degradeQuality'),
    ...(a.pauseEvery === undefined ? {} : { pauseEveryMs: parseDurationMs(a.pauseEvery as string, 'pause-every') }),
    ...(a.pauseFor === undefined ? {} : { pauseForMs: parseDurationMs(a.pauseFor as string, 'pause-for') }),
  };
}

/** The flag of a service option: `pauseForMs` → `--pause-for`, `workspacePath` → `--workspace`. */
function flagOf(field: string): string {
  const name = field.replace(/Path$|Ms$|S$/, '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  return `--${name}`;
}

function asInputError(error: unknown, argv: Record<string, unknown>): unknown {
  if (error instanceof WorkspaceError) return new InputError(error.reason, { file: error.file, ...(error.line !== undefined ? { line: error.line } : {}), field: error.field });
  if (error instanceof ServiceOptionsError) return new InputError(error.reason, { field: flagOf(error.field) });
  const listen = listenProblem(error, argv);
  return listen ?? error;
}

const LISTEN_PROBLEMS: Record<string, string> = {
  EADDRINUSE: 'is already in use (another process listens there); pick another --port, or --port 0 for a free one',
  EACCES: 'may not be opened by this user (ports below 1024 need privileges); pick another --port',
  EADDRNOTAVAIL: 'is not an address of this machine; check --host',
};

/** A port that cannot be listened on is the user's to fix: one line naming host and port (exit 2), not a stack. */
function listenProblem(error: unknown, argv: Record<string, unknown>): InputError | null {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const words = code === undefined ? undefined : LISTEN_PROBLEMS[code];
  if (words === undefined || (error as { syscall?: string }).syscall !== 'listen') return null;
  return new InputError(`${String(argv.host)}:${String(argv.port)} ${words} (${code})`, { field: '--port' });
}

/** `--from-run DIR`: the recorded run, read through store/ (imported only when asked). */
async function recordingOf(a: Record<string, unknown>): Promise<Recording | undefined> {
  if (a.fromRun === undefined) return undefined;
  if (a.workspace !== undefined) throw new InputError('give --workspace or --from-run, not both (a replay serves the recorded board and chat)', { field: '--from-run' });
  const { readRecording } = await import('../../replay/recording.js');
  return readRecording(a.fromRun as string);
}

export function serveCommand(io: CliIo, setExit: (code: ExitCode) => void): CommandModule {
  return {
    command: 'serve',
    describe: 'run the embedded reference service alone (prints its URL and the demo key)',
    builder: (y) =>
      y
        .option('port', { type: 'number', default: 8787, describe: '0 picks a free port' })
        .option('host', { type: 'string', default: '127.0.0.1' })
        .option('workspace', { type: 'string', describe: 'workspace file (default: suites/demo/workspace.yaml)' })
        .option('from-run', { type: 'string', describe: 'replay a recorded run directory: each question it asked gets its recorded answer, credits and stream dialect, timed from its own first-chunk times and chunk gaps per model (seeded); other questions get 404' })
        .option('seed', { type: 'number', describe: 'random seed: every random choice of the service (latencies, chunking, faults) repeats for a seed' })
        .option('dialect', { choices: STREAM_DIALECTS, describe: 'stream format (default ui-sse: AI SDK UI-message SSE)' })
        .option('latency-scale', { type: 'number', describe: 'multiply model latencies; 0 answers at once, with no capacity limit' })
        .option('crlf', { type: 'boolean', describe: 'end stream lines with CRLF' })
        .option('split-writes', { type: 'boolean', describe: 'write streams in ragged byte pieces' })
        .option('max-in-flight', { type: 'number', describe: 'answers at once before 429 (0: no limit)' })
        .option('slots', { type: 'number', group: 'Load:', describe: 'answers each model generates at once, for every model (default: the model profile\'s, 4; 0: unlimited)' })
        .option('queue-limit', { type: 'number', group: 'Load:', describe: 'answers each model lets wait for a slot before refusing (default: the profile\'s, 8)' })
        .option('overload-status', { choices: [429, 503] as const, group: 'Load:', describe: 'status when a model\'s queue is full, with Retry-After (default 429)' })
        .option('degrade-quality', { type: 'boolean', group: 'Load:', describe: 'answers that had to queue search less and quote one passage' })
        .option('pause-every', { type: 'string', group: 'Faults:', describe: 'pause the whole service this often (e.g. 10s), as a GC pause' })
        .option('pause-for', { type: 'string', group: 'Faults:', describe: 'length of each pause (e.g. 1s); nothing answers meanwhile' })
        .option('usage-remaining', { type: 'boolean', describe: 'add credits_remaining to the usage chunk of streamed answers (default: the documented chunk, credits_used alone)' })
        .option('fault-rate', { type: 'number', group: 'Faults:', describe: 'share of requests answered 500' })
        .option('judge-fault-rate', { type: 'number', group: 'Faults:', describe: 'share of judge-chat answers that fail (500) or babble (no verdict), half each' })
        .option('rate-limit-rate', { type: 'number', group: 'Faults:', describe: 'share answered 429 with Retry-After' })
        .option('retry-after', { type: 'number', group: 'Faults:', describe: 'Retry-After seconds of injected 429s' })
        .option('stall-ms', { type: 'number', group: 'Faults:', describe: 'stall before the first chunk, ms' })
        .option('stall-rate', { type: 'number', group: 'Faults:', describe: 'share of answers that stall' })
        .option('cut-rate', { type: 'number', group: 'Faults:', describe: 'share of streams cut midway' })
        .option('html502-rate', { type: 'number', group: 'Faults:', describe: 'share answered by an HTML 502 proxy page' })
        .example('$0 serve', 'listen on 127.0.0.1:8787 with the demo workspace')
        .example('$0 serve --port 0 --latency-scale 0', 'a free port, answers at once (tests)')
        .example('$0 serve --rate-limit-rate 0.2 --fault-rate 0.05', 'inject 429s and 500s')
        .example('$0 serve --slots 2 --queue-limit 4 --overload-status 503', 'a smaller service that answers 503 when overloaded')
        .example('$0 serve --pause-every 10s --pause-for 1s', 'a service-wide 1 s pause every 10 s')
        .example('$0 serve --from-run reports/nightly --port 0', 'answer as a recorded run did, offline (CI and load rehearsals)'),
    handler: async (argv) => {
      let running;
      const recording = await recordingOf(argv as Record<string, unknown>);
      try {
        running = await startReferenceService(serviceOptions(argv as Record<string, unknown>), recording ? { recording } : undefined);
      } catch (error) {
        throw asInputError(error, argv as Record<string, unknown>);
      }
      for (const line of describeService(running)) io.out(line);
      await serveUntilStopped(io.signals, () => running.close());
      setExit(EXIT.ok);
    },
  };
}
