// Maps a non-2xx answer (or a 2xx carrying an error body) to its typed error: status first,
// the JSON body's `error` field second. Non-JSON bodies (a proxy's HTML page) never crash it.
import {
  CreditsExhaustedError,
  HttpError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitedError,
  ServerError,
  UnauthorizedError,
  ValidationError,
} from '../domain/index.js';
import { ErrorBodySchema, type ErrorBody } from '../protocol/index.js';
import { excerpt } from './redact.js';

type ErrorKind = 'unauthorized' | 'validation' | 'not-found' | 'rate-limited' | 'credits' | 'too-large' | 'server' | 'http';

export interface HttpFailure {
  status: number;
  /** `POST /api/conversation`: never the URL with its query, which may hold the key. */
  label: string;
  /** Already redacted and truncated. */
  bodyText: string;
  retryAfter?: string | string[] | undefined;
}

const BY_STATUS: Record<number, ErrorKind> = {
  400: 'validation',
  401: 'unauthorized',
  402: 'credits',
  404: 'not-found',
  413: 'too-large',
  // A GET form's prompt rides in the URL: too long a URL is the same mistake as too large a body.
  414: 'too-large',
  429: 'rate-limited',
  431: 'too-large',
};

const BY_BODY: [RegExp, ErrorKind][] = [
  [/unauthori[sz]ed|api key/i, 'unauthorized'],
  [/validation/i, 'validation'],
  [/not found/i, 'not-found'],
  [/rate.?limit|too many requests/i, 'rate-limited'],
  [/credit|payment required|quota/i, 'credits'],
  [/too large/i, 'too-large'],
];

export function parseErrorBody(text: string): ErrorBody | null {
  try {
    const parsed = ErrorBodySchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function kindOf(status: number, body: ErrorBody | null): ErrorKind {
  const byStatus = BY_STATUS[status];
  if (byStatus) return byStatus;
  if (status >= 500) return 'server';
  const name = body?.error;
  if (name !== undefined) for (const [pattern, kind] of BY_BODY) if (pattern.test(name)) return kind;
  return 'http';
}

function parsedBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function httpErrorFor(failure: HttpFailure): HttpError {
  const errorBody = parseErrorBody(failure.bodyText);
  const body = parsedBody(failure.bodyText);
  const said = errorBody
    ? [errorBody.error, errorBody.message].filter((part) => part !== undefined && part !== '').join(': ')
    : excerpt(failure.bodyText);
  const message = `${failure.label} answered HTTP ${failure.status}${said ? `: ${said}` : ''}`;
  const status = failure.status;
  switch (kindOf(status, errorBody)) {
    case 'unauthorized':
      return new UnauthorizedError(message, status, body);
    case 'validation':
      return new ValidationError(message, status, body, errorBody?.details);
    case 'not-found':
      return new NotFoundError(message, status, body);
    case 'rate-limited':
      return new RateLimitedError(message, status, body, parseRetryAfterMs(failure.retryAfter));
    case 'credits':
      return new CreditsExhaustedError(message, status, body);
    case 'too-large':
      return new PayloadTooLargeError(message, status, body);
    case 'server':
      return new ServerError(message, status, body, parseRetryAfterMs(failure.retryAfter));
    case 'http':
      return new HttpError(message, status, body);
  }
}

/**
 * Retry-After is either delay-seconds or an HTTP-date. The date form is wall-clock by definition,
 * so it is compared with the wall clock (`nowWallMs` for tests).
 */
export function parseRetryAfterMs(value: string | string[] | undefined, nowWallMs?: number): number | undefined {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Math.round(Number.parseFloat(raw) * 1000);
  // An HTTP-date names its month; bare numbers like '-5' would otherwise parse as years.
  if (!/[a-z]{3}/i.test(raw)) return undefined;
  const at = new Date(raw).getTime();
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - (nowWallMs ?? new Date().getTime()));
}

/** A 2xx whose body is an error object the interface knows (`{error: "Unauthorized"}`), or null. */
export function errorFromOkBody(failure: HttpFailure): HttpError | null {
  const errorBody = parseErrorBody(failure.bodyText);
  if (!errorBody || kindOf(failure.status, errorBody) === 'http') return null;
  return httpErrorFor(failure);
}
