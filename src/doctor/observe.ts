// Words for what was observed: a failure, an error body, a text excerpt (never the key: the client
// redacts what it keeps, and nothing here reads a request).
import { HttpError, MalformedBodyError, type KbError } from '../domain/index.js';

const MAX_EXCERPT = 100;

export function excerptOf(text: string, max = MAX_EXCERPT): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

export function bodyWords(body: unknown): string {
  return excerptOf(typeof body === 'string' ? body : JSON.stringify(body));
}

/** `HTTP 404 {"error":"Not found",…}`, or the failure's code and message when no answer came. */
export function failureWords(error: KbError): string {
  if (error instanceof HttpError) return `HTTP ${error.statusCode} ${bodyWords(error.body)}`;
  if (error instanceof MalformedBodyError) return `HTTP ${error.statusCode} with a body of another shape: ${excerptOf(error.body)}`;
  return `${error.code}: ${excerptOf(error.message, 160)}`;
}

export function statusOf(error: KbError): number | null {
  if (error instanceof HttpError || error instanceof MalformedBodyError) return error.statusCode;
  return null;
}

/** The error body's fields, when it is a JSON object. */
export function errorBodyOf(error: KbError): Record<string, unknown> | null {
  const body = error instanceof HttpError ? error.body : null;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
}

/** A refusal as kbbench needs it: a 4xx (the expected status, when one is named) with a JSON `{error}` body. */
export function refusalProblem(error: KbError, expected?: number): string | null {
  const status = statusOf(error);
  if (status === null) return `no HTTP answer (${failureWords(error)})`;
  if (expected !== undefined ? status !== expected : status < 400 || status > 499) {
    return `HTTP ${status}, not ${expected ?? 'a 4xx'}: ${failureWords(error)}`;
  }
  const body = errorBodyOf(error);
  if (!body || typeof body.error !== 'string') return `the body is not a JSON {error}: ${failureWords(error)}`;
  return null;
}
