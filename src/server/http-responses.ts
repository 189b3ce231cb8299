// JSON responses and the error bodies of the service (interface.md §7, statuses from protocol STATUS).
import {
  ERROR_UNAUTHORIZED,
  ERROR_VALIDATION,
  MESSAGE_UNAUTHORIZED,
  MESSAGE_VALIDATION,
  STATUS,
  type ErrorBody,
} from '../protocol/index.js';
import { HTML_502_PAGE } from './faults.js';
import type { ServiceResponse } from './service-types.js';

export function json(status: number, body: unknown, headers: Record<string, string> = {}): ServiceResponse {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(body) };
}

function error(status: number, body: ErrorBody, headers?: Record<string, string>): ServiceResponse {
  return json(status, body, headers);
}

/** `{error}` alone, as documented for list boards; `{error, message}` everywhere else. */
export function unauthorized(bare: boolean): ServiceResponse {
  return error(STATUS.unauthorized, bare ? { error: ERROR_UNAUTHORIZED } : { error: ERROR_UNAUTHORIZED, message: MESSAGE_UNAUTHORIZED });
}

/** `details` maps each offending field to what is wrong with it. */
export function validationFailed(details: Record<string, string>): ServiceResponse {
  return error(STATUS.validation, { error: ERROR_VALIDATION, message: MESSAGE_VALIDATION, details });
}

export function notFound(message: string): ServiceResponse {
  return error(STATUS.notFound, { error: 'Not found', message });
}

export function methodNotAllowed(allowed: readonly string[]): ServiceResponse {
  return error(405, { error: 'Method Not Allowed', message: `Use ${allowed.join(' or ')}.` }, { allow: allowed.join(', ') });
}

export function paymentRequired(message: string): ServiceResponse {
  return error(STATUS.creditsExhausted, { error: 'Payment Required', message });
}

export function payloadTooLarge(limitBytes: number): ServiceResponse {
  return error(STATUS.payloadTooLarge, { error: 'Payload Too Large', message: `Request body exceeds ${limitBytes} bytes.` });
}

export function rateLimited(retryAfterS: number, reason = 'Rate limit exceeded.'): ServiceResponse {
  return error(
    STATUS.rateLimited,
    { error: 'Too Many Requests', message: `${reason} Retry after ${retryAfterS} s.` },
    { 'retry-after': String(retryAfterS) },
  );
}

/** An overloaded service that says when to come back, as a load balancer in front of it would. */
export function serviceUnavailable(retryAfterS: number, reason: string): ServiceResponse {
  return error(
    STATUS.serviceUnavailable,
    { error: 'Service Unavailable', message: `${reason} Retry after ${retryAfterS} s.` },
    { 'retry-after': String(retryAfterS) },
  );
}

export function serverError(message = 'Something went wrong. Please try again later.'): ServiceResponse {
  return error(STATUS.serverError, { error: 'Internal Server Error', message });
}

/** What a reverse proxy in front of a failing service returns: HTML, not JSON. */
export function badGatewayHtml(): ServiceResponse {
  return { status: 502, headers: { 'content-type': 'text/html; charset=utf-8' }, body: HTML_502_PAGE };
}
