// One error class per failure kind, each with a stable `code` (the undici habit): callers branch
// on `code`, never on message text. Messages never contain the API key.
import type { PartialAnswer } from './answer.js';

/** Every stable code, as a value: who maps codes (exit codes, messages) asks for each by name. */
export const KB_ERROR_CODES = [
  'E_UNAUTHORIZED',
  'E_VALIDATION',
  'E_NOT_FOUND',
  'E_RATE_LIMITED',
  'E_CREDITS_EXHAUSTED',
  'E_PAYLOAD_TOO_LARGE',
  'E_HTTP',
  'E_SERVER',
  'E_TIMEOUT',
  'E_CONNECTION',
  'E_HEADERS_OVERFLOW',
  'E_MALFORMED_BODY',
  'E_STREAM',
  'E_ABORTED',
  'E_INPUT',
  'E_CONFIG',
  'E_STORAGE',
  'E_WORKER',
  'E_BODY_TOO_LARGE',
] as const;

export type KbErrorCode = (typeof KB_ERROR_CODES)[number];

const KNOWN_CODES: ReadonlySet<string> = new Set(KB_ERROR_CODES);

/**
 * The stable code of a failure, read from the error itself, not its class: an error that crossed a
 * boundary (a worker thread's message, a second copy of a module) keeps its code but not its class.
 */
export function kbErrorCodeOf(error: unknown): KbErrorCode | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && KNOWN_CODES.has(code) ? (code as KbErrorCode) : undefined;
}

export abstract class KbError extends Error {
  abstract readonly code: KbErrorCode;
  override readonly name: string = this.constructor.name;
  /** What had arrived before the failure (status, text, marks), when anything had. */
  partial?: PartialAnswer;
  /** Attempts the retry layer made before giving up (client/retry.ts), set only when more than one. */
  attempts?: number;
}

/** An HTTP answer other than 2xx. `body` is the parsed JSON or the raw text (truncated). */
export class HttpError extends KbError {
  readonly code: KbErrorCode = 'E_HTTP';
  constructor(
    message: string,
    readonly statusCode: number,
    readonly body: unknown,
  ) {
    super(message);
  }
}
export class UnauthorizedError extends HttpError {
  override readonly code = 'E_UNAUTHORIZED' as const;
}
export class ValidationError extends HttpError {
  override readonly code = 'E_VALIDATION' as const;
  constructor(message: string, statusCode: number, body: unknown, readonly details: Record<string, unknown> | undefined) {
    super(message, statusCode, body);
  }
}
export class NotFoundError extends HttpError {
  override readonly code = 'E_NOT_FOUND' as const;
}
export class RateLimitedError extends HttpError {
  override readonly code = 'E_RATE_LIMITED' as const;
  constructor(message: string, statusCode: number, body: unknown, readonly retryAfterMs: number | undefined) {
    super(message, statusCode, body);
  }
}
export class CreditsExhaustedError extends HttpError {
  override readonly code = 'E_CREDITS_EXHAUSTED' as const;
}
export class PayloadTooLargeError extends HttpError {
  override readonly code = 'E_PAYLOAD_TOO_LARGE' as const;
}
export class ServerError extends HttpError {
  override readonly code = 'E_SERVER' as const;
  /** A 503 may say when to come back (Retry-After); retries wait at least that long. */
  constructor(message: string, statusCode: number, body: unknown, readonly retryAfterMs?: number) {
    super(message, statusCode, body);
  }
}

export type TimeoutPhase = 'headers' | 'first-chunk' | 'mid-stream' | 'body';
export class TimeoutError extends KbError {
  readonly code = 'E_TIMEOUT' as const;
  constructor(message: string, readonly phase: TimeoutPhase) {
    super(message);
  }
}
/** Connection refused, reset or closed before the answer was complete. */
export class ConnectionError extends KbError {
  readonly code = 'E_CONNECTION' as const;
  constructor(message: string, readonly causeCode: string | undefined) {
    super(message);
  }
}
/**
 * An answer whose headers passed the client's limit (16 KiB): the service answered, so it may have
 * charged for it, and another attempt could pay twice. Never retried; counted "may have been charged".
 */
export class HeadersOverflowError extends KbError {
  readonly code = 'E_HEADERS_OVERFLOW' as const;
}
/** A 2xx body that is not what the interface promises (bad JSON, wrong shape). */
export class MalformedBodyError extends KbError {
  readonly code = 'E_MALFORMED_BODY' as const;
  constructor(message: string, readonly statusCode: number, readonly body: string) {
    super(message);
  }
}
/** A stream that ended without a finish event, or carried an error chunk. */
export class StreamError extends KbError {
  readonly code = 'E_STREAM' as const;
}
export class AbortedError extends KbError {
  readonly code = 'E_ABORTED' as const;
}

/** Invalid user input (suite, workspace, flags). Names the file, line/column and field. */
export class InputError extends KbError {
  readonly code = 'E_INPUT' as const;
  constructor(
    message: string,
    readonly location: { file?: string; line?: number; column?: number; field?: string } = {},
  ) {
    super(message);
  }
  /** `file:line:column field: message`, the form editors and CI logs link from. */
  describe(): string {
    const { file, line, column, field } = this.location;
    const where = [file, line, column].filter((p) => p !== undefined).join(':');
    return [where, field ? `${field}:` : '', this.message].filter(Boolean).join(' ');
  }
}
export class ConfigError extends KbError {
  readonly code = 'E_CONFIG' as const;
}

/** A file of a run directory could not be written (a full disk, a read-only folder): names the file. */
export class StorageError extends KbError {
  readonly code = 'E_STORAGE' as const;
  constructor(
    message: string,
    readonly file: string,
    /** The system's code, e.g. ENOSPC. */
    readonly reason: string,
  ) {
    super(message);
  }
}

/** A worker thread's failure (--workers), carried to the main thread: one line, naming the worker; its stack kept for debugging. */
export class WorkerError extends KbError {
  readonly code = 'E_WORKER' as const;
  constructor(worker: string, failure: { name?: string; message: string; code?: string; stack?: string }) {
    // The first line: a message that carries a stack or a multi-line detail is still one line.
    super(`${worker}: ${failure.code ? `${failure.code}: ` : ''}${failure.message.split('\n')[0]}`);
    if (failure.stack) this.stack = `WorkerError: ${this.message}\n    (in ${worker}) ${failure.stack}`;
  }
}

/** A reply past the limit kbbench reads (a grader's, an embeddings endpoint's): given up, never read whole. */
export class BodyTooLargeError extends KbError {
  readonly code = 'E_BODY_TOO_LARGE' as const;
  constructor(message: string, readonly limitBytes: number) {
    super(message);
  }
}
