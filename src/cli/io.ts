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

export function processIo(): CliIo {
  let redact = (text: string): string => text;
  return {
    out: (text) => void process.stdout.write(`${redact(text)}\n`),
    err: (text) => void process.stderr.write(`${redact(text)}\n`),
    stderr: process.stderr,
    env: process.env,
    redact: (text) => redact(text),
    setRedact: (next) => {
      redact = next;
    },
  };
}
