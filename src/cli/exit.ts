// Exit codes (CONTRACT.md) and how errors become them: the one place that decides, by the error's
// stable `code` (domain/errors.ts), never by its class.
import { kbErrorCodeOf, type InputError, type KbErrorCode } from '../domain/errors.js';
import type { Verdict } from '../domain/summary.js';
import { describeIssues } from '../suite/suite-error.js';

export const EXIT = { ok: 0, failed: 1, input: 2, stopped: 3 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The verdict rule's exit codes: pass 0, fail 1, incomplete (the run did not finish) 3. */
export function exitForVerdict(verdict: Verdict): ExitCode {
  return verdict === 'pass' ? EXIT.ok : verdict === 'fail' ? EXIT.failed : EXIT.stopped;
}

/**
 * Input errors are the user's to fix (2); anything that stopped the run before its end is 3. One
 * line per code: the compiler asks for a new code's exit here.
 */
const EXIT_BY_CODE: Record<KbErrorCode, ExitCode> = {
  E_INPUT: EXIT.input,
  E_CONFIG: EXIT.input,
  E_UNAUTHORIZED: EXIT.stopped,
  E_VALIDATION: EXIT.stopped,
  E_NOT_FOUND: EXIT.stopped,
  E_RATE_LIMITED: EXIT.stopped,
  E_CREDITS_EXHAUSTED: EXIT.stopped,
  E_PAYLOAD_TOO_LARGE: EXIT.stopped,
  E_HTTP: EXIT.stopped,
  E_SERVER: EXIT.stopped,
  E_TIMEOUT: EXIT.stopped,
  E_CONNECTION: EXIT.stopped,
  E_HEADERS_OVERFLOW: EXIT.stopped,
  E_MALFORMED_BODY: EXIT.stopped,
  E_STREAM: EXIT.stopped,
  E_ABORTED: EXIT.stopped,
  E_STORAGE: EXIT.stopped,
  E_WORKER: EXIT.stopped,
  E_BODY_TOO_LARGE: EXIT.stopped,
};

export function exitCodeFor(error: unknown): ExitCode {
  const code = kbErrorCodeOf(error);
  return code === undefined ? EXIT.stopped : EXIT_BY_CODE[code];
}

export function describeError(error: unknown): string {
  const code = kbErrorCodeOf(error);
  if (code === 'E_INPUT' && typeof (error as Partial<InputError>).describe === 'function') {
    const input = error as InputError & { issues?: InputError[] };
    if (input.issues && input.issues.length > 0) return describeIssues(input.issues);
    return input.describe();
  }
  if (code !== undefined) return `${code}: ${(error as Error).message}`;
  if (error instanceof Error) return error.stack ?? error.message;
  return String(error);
}
