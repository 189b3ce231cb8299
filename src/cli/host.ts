// What the CLI takes from the process it runs in, as one value: the bin passes the real process
// (processHost), tests pass their own streams, environment and signal source and run it in-process.
import type { ExitCode } from './exit.js';

/** Where signals come from: the process, or a test's EventEmitter. */
export interface SignalSource {
  on(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  off(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
}

export interface CliHost {
  /** Results (summary, JSON, help). */
  stdout: NodeJS.WriteStream;
  /** Progress, warnings and errors. */
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
  /** The directory relative paths of flags are read from. Paths resolve against process.cwd(): they must agree. */
  cwd: string;
  signals: SignalSource;
  /** Called once, with the exit code, when the command is done (the bin sets process.exitCode: output drains first). */
  exit(code: ExitCode): void;
}

export function processHost(): CliHost {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    signals: process,
    exit: (code) => {
      process.exitCode = code;
    },
  };
}
