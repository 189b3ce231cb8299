// Exit codes (CONTRACT.md) and how errors become them: the one place that decides.
import { InputError, KbError } from '../domain/errors.js';
import type { Verdict } from '../domain/summary.js';

export const EXIT = { ok: 0, failed: 1, input: 2, stopped: 3 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The verdict rule's exit codes: pass 0, fail 1, incomplete (the run did not finish) 3. */
export function exitForVerdict(verdict: Verdict): ExitCode {
  return verdict === 'pass' ? EXIT.ok : verdict === 'fail' ? EXIT.failed : EXIT.stopped;
}

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
