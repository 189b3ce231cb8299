// Exit codes (CONTRACT.md) and how errors become them: the one place that decides.
import { InputError, KbError } from '../domain/errors.js';

export const EXIT = { ok: 0, failed: 1, input: 2, stopped: 3 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Input errors are the user's to fix (2); anything that stopped the run before its end is 3. */
export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof InputError) return EXIT.input;
  if (error instanceof KbError) return error.code === 'E_CONFIG' ? EXIT.input : EXIT.stopped;
  return EXIT.stopped;
}

export function describeError(error: unknown): string {
  if (error instanceof InputError) {
    const issues = (error as InputError & { issues?: InputError[] }).issues;
    if (issues && issues.length > 0) return issues.map((i) => i.describe()).join('\n');
    return error.describe();
  }
  if (error instanceof KbError) return `${error.code}: ${error.message}`;
  if (error instanceof Error) return error.stack ?? error.message;
  return String(error);
}
