// What commands write to: stdout for results, stderr for progress and diagnostics, both redacted.
import type { CliHost, SignalSource } from './host.js';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
  /** The working directory the flags' relative paths are read from. */
  cwd: string;
  /** Ctrl-C and friends (the process's, or a test's). */
  signals: SignalSource;
  /** Applied to everything printed, so a key can never reach the terminal. */
  redact(text: string): string;
  setRedact(redact: (text: string) => string): void;
}

/**
 * Control characters and bidi overrides from outside (ids, model names, answers) are shown escaped,
 * never obeyed: an ESC or OSC sequence in a case id must not drive the terminal, and U+202E must not
 * reverse what follows it. Tabs and line breaks stay: they are the output's own layout.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

export function escapeControls(text: string): string {
  return text.replace(CONTROL, (char) => {
    const code = char.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/**
 * A closed stdout or stderr (`kbbench run … 2>&1 | head -1`, a CI log that went away) stops the
 * printing, never the run: the run finishes, writes its reports and exits with its verdict's code.
 * Exiting on EPIPE would leave run.json `running`, answers paid and unrecorded, and exit 0.
 */
const CLOSED_PIPE_CODES = new Set(['EPIPE', 'ERR_STREAM_DESTROYED', 'ECONNRESET']);

export interface PipeGuard {
  /** True once the reader of this stream went away: nothing more is written to it. */
  readonly closed: boolean;
}

export function guardClosedPipe(stream: NodeJS.WritableStream): PipeGuard {
  const guard = { closed: false };
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (!CLOSED_PIPE_CODES.has(error.code ?? '')) throw error;
    guard.closed = true;
  });
  return guard;
}

/** A stream that drops what is written once its reader is gone (the progress and live lines write here). */
function quietWhenClosed(stream: NodeJS.WriteStream, guard: PipeGuard): NodeJS.WriteStream {
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  stream.write = ((...args: unknown[]) => (guard.closed || stream.destroyed ? true : write(...args))) as typeof stream.write;
  return stream;
}

/** The commands' view of a host: redacted, escaped lines; a closed pipe stops the printing only. */
export function cliIo(host: Pick<CliHost, 'stdout' | 'stderr' | 'env' | 'cwd' | 'signals'>): CliIo {
  let redact = (text: string): string => text;
  const stdout = quietWhenClosed(host.stdout, guardClosedPipe(host.stdout));
  const stderr = quietWhenClosed(host.stderr, guardClosedPipe(host.stderr));
  return {
    out: (text) => void stdout.write(`${escapeControls(redact(text))}\n`),
    err: (text) => void stderr.write(`${escapeControls(redact(text))}\n`),
    stderr,
    env: host.env,
    cwd: host.cwd,
    signals: host.signals,
    redact: (text) => redact(text),
    setRedact: (next) => {
      redact = next;
    },
  };
}
