// Unit tests: status/body → error class, Retry-After, redaction.
import { describe, expect, it } from 'vitest';
import { HttpError, type RateLimitedError, ValidationError } from '../domain/index.js';
import { errorFromOkBody, httpErrorFor, parseRetryAfterMs } from './http-errors.js';
import { createRedactor, excerpt, unredactableSecrets } from './redact.js';

const failure = (status: number, body: unknown, retryAfter?: string) => ({
  status,
  label: 'POST /api/conversation',
  bodyText: typeof body === 'string' ? body : JSON.stringify(body),
  retryAfter,
});

describe('httpErrorFor', () => {
  it.each([
    [400, 'E_VALIDATION'],
    [401, 'E_UNAUTHORIZED'],
    [402, 'E_CREDITS_EXHAUSTED'],
    [404, 'E_NOT_FOUND'],
    [413, 'E_PAYLOAD_TOO_LARGE'],
    [414, 'E_PAYLOAD_TOO_LARGE'],
    [431, 'E_PAYLOAD_TOO_LARGE'],
    [429, 'E_RATE_LIMITED'],
    [500, 'E_SERVER'],
    [503, 'E_SERVER'],
    [418, 'E_HTTP'],
  ])('maps status %i to %s', (status, code) => {
    const error = httpErrorFor(failure(status, { error: 'Something' }));
    expect(error.code).toBe(code);
    expect(error.statusCode).toBe(status);
  });

  it('maps by the body when the status says nothing more', () => {
    expect(httpErrorFor(failure(403, { error: 'Unauthorized' })).code).toBe('E_UNAUTHORIZED');
    expect(httpErrorFor(failure(422, { error: 'Validation failed', details: {} })).code).toBe('E_VALIDATION');
    expect(httpErrorFor(failure(403, { error: 'Monthly credits exhausted' })).code).toBe('E_CREDITS_EXHAUSTED');
    expect(httpErrorFor(failure(409, { error: 'Conflict' })).code).toBe('E_HTTP');
  });

  it('keeps validation details and the documented message', () => {
    const body = { error: 'Validation failed', message: 'Request validation failed. Please check your parameters.', details: { boardId: 'Required' } };
    const error = httpErrorFor(failure(400, body)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.details).toEqual({ boardId: 'Required' });
    expect(error.body).toEqual(body);
    expect(error.message).toBe('POST /api/conversation answered HTTP 400: Validation failed: Request validation failed. Please check your parameters.');
  });

  it('survives a non-JSON body (a proxy HTML page)', () => {
    const html = '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>';
    const error = httpErrorFor(failure(502, html));
    expect(error.code).toBe('E_SERVER');
    expect(error.body).toBe(html);
    expect(error.message).toContain('HTTP 502');
    expect(error.message).toContain('502 Bad Gateway');
  });

  it('parses Retry-After into the rate-limit error', () => {
    const error = httpErrorFor(failure(429, { error: 'Too Many Requests' }, '3')) as RateLimitedError;
    expect(error.retryAfterMs).toBe(3000);
  });

  it('names a 2xx error body only when the interface knows it', () => {
    expect(errorFromOkBody(failure(200, { error: 'Unauthorized' }))).toBeInstanceOf(HttpError);
    expect(errorFromOkBody(failure(200, { error: 'odd' }))).toBeNull();
    expect(errorFromOkBody(failure(200, 'not json'))).toBeNull();
  });
});

describe('parseRetryAfterMs', () => {
  const now = Date.parse('2025-06-01T12:00:00Z');
  it('reads delay-seconds and HTTP-dates', () => {
    expect(parseRetryAfterMs('120')).toBe(120_000);
    expect(parseRetryAfterMs('1.5')).toBe(1500);
    expect(parseRetryAfterMs('Sun, 01 Jun 2025 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfterMs('Sun, 01 Jun 2025 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfterMs(['7', '8'])).toBe(7000);
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfterMs(undefined)).toBeUndefined();
    expect(parseRetryAfterMs('')).toBeUndefined();
    expect(parseRetryAfterMs('soon')).toBeUndefined();
    expect(parseRetryAfterMs('-5')).toBeUndefined();
  });
});

describe('redaction', () => {
  it('removes the key raw and percent-encoded', () => {
    const redact = createRedactor('k/y+z 12');
    expect(redact('a k/y+z 12 b k%2Fy%2Bz%2012 c k%2Fy%2Bz+12')).toBe('a [redacted] b [redacted] c [redacted]');
    expect(createRedactor('')('same')).toBe('same');
  });

  it('never searches for a key under 8 characters (it would alter ordinary text)', () => {
    for (const key of ['1', 'k', 'ok', 'true', 'model', 'abcdefg']) {
      expect(createRedactor(key)('{"outcome":"ok","repeat":1,"model":"true"}')).toBe('{"outcome":"ok","repeat":1,"model":"true"}');
    }
    expect(unredactableSecrets(['ok', undefined, '', 'long-enough-key'])).toEqual(['ok']);
  });

  it('redacts several secrets, each in every form', () => {
    const redact = createRedactor(['kb-live-aaaa-1111', undefined, 'kb-demo-0000-local']);
    expect(redact('a kb-live-aaaa-1111 b kb-demo-0000-local')).toBe('a [redacted] b [redacted]');
  });

  it('makes short one-line excerpts', () => {
    expect(excerpt('a\n\n  b', 10)).toBe('a b');
    expect(excerpt('x'.repeat(20), 5)).toBe('xxxxx…');
  });
});
