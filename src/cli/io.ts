// What commands write to: stdout for results, stderr for progress and diagnostics, both redacted.
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
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
 * A closed stdout (`kbbench validate … | head`) ends the command quietly, as other Unix tools do,
 * instead of an EPIPE stack trace; the exit code is what the command had decided so far.
 */
function quietOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  });
}

export function processIo(): CliIo {
  let redact = (text: string): string => text;
  quietOnClosedPipe(process.stdout);
  quietOnClosedPipe(process.stderr);
  return {
    out: (text) => void process.stdout.write(`${escapeControls(redact(text))}\n`),
    err: (text) => void process.stderr.write(`${escapeControls(redact(text))}\n`),
    stderr: process.stderr,
    env: process.env,
    redact: (text) => redact(text),
    setRedact: (next) => {
      redact = next;
    },
  };
}
