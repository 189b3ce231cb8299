// Unit tests: dialect detection from headers and from the first bytes.
import { describe, expect, it } from 'vitest';
import { planFromHeaders, SNIFF_LIMIT_CHARS, sniffPlan, type ResponseShape } from './detect.js';

const shape = (overrides: Partial<ResponseShape>): ResponseShape => ({
  contentType: null,
  headers: {},
  streamingRequested: true,
  dialect: 'auto',
  ...overrides,
});

describe('planFromHeaders', () => {
  it('follows a forced dialect for streamed requests', () => {
    expect(planFromHeaders(shape({ dialect: 'ndjson', contentType: 'text/event-stream' }))).toBe('ndjson');
  });

  it('maps content types and AI SDK headers', () => {
    expect(planFromHeaders(shape({ contentType: 'text/event-stream; charset=utf-8' }))).toBe('sse');
    expect(planFromHeaders(shape({ contentType: 'application/x-ndjson' }))).toBe('ndjson');
    expect(planFromHeaders(shape({ contentType: 'text/plain', headers: { 'x-vercel-ai-data-stream': 'v1' } }))).toBe('data-stream');
    expect(planFromHeaders(shape({ contentType: 'text/plain; charset=utf-8' }))).toBe('sniff');
    expect(planFromHeaders(shape({ contentType: 'application/json' }))).toBe('sniff-json');
  });

  it('never takes a web page for a plain-text answer, even with a forced dialect', () => {
    expect(planFromHeaders(shape({ contentType: 'text/html; charset=utf-8' }))).toBe('json');
    expect(planFromHeaders(shape({ contentType: 'application/xhtml+xml', dialect: 'text' }))).toBe('json');
  });

  it('expects JSON when no stream was asked for, unless the content type says stream', () => {
    expect(planFromHeaders(shape({ streamingRequested: false, contentType: 'text/plain' }))).toBe('json');
    expect(planFromHeaders(shape({ streamingRequested: false, dialect: 'text' }))).toBe('json');
    expect(planFromHeaders(shape({ streamingRequested: false, contentType: 'text/event-stream' }))).toBe('sse');
  });
});

describe('sniffPlan', () => {
  it('recognises SSE at its first field or comment, even after blank lines', () => {
    expect(sniffPlan('data:', false, false)).toBe('sse');
    expect(sniffPlan('\r\n: ping', false, false)).toBe('sse');
    expect(sniffPlan('\uFEFFevent: x', false, false)).toBe('sse');
  });

  it('waits while the prefix is ambiguous', () => {
    expect(sniffPlan('', false, false)).toBeNull();
    expect(sniffPlan('\n\n', false, false)).toBeNull();
    expect(sniffPlan('da', false, false)).toBeNull();
    expect(sniffPlan('0', false, false)).toBeNull();
    expect(sniffPlan('0:"Hel', false, false)).toBeNull();
    expect(sniffPlan('{"type":"start"', false, false)).toBeNull();
  });

  it('recognises data-stream lines and NDJSON UI chunks once the first line is complete', () => {
    expect(sniffPlan('f:{"messageId":"m"}\n', false, false)).toBe('data-stream');
    expect(sniffPlan('0:"Hello"\r', false, false)).toBe('data-stream');
    expect(sniffPlan('{"type":"start"}\n', false, false)).toBe('ndjson');
    expect(sniffPlan('{"choices":[]}\n', false, false)).toBe('ndjson');
  });

  it('falls back to plain text as early as it can', () => {
    expect(sniffPlan('Hello', false, false)).toBe('text');
    expect(sniffPlan('1: first point\n', false, false)).toBe('text');
    expect(sniffPlan('1: 42\n2: 43\n', false, false)).toBe('text');
    expect(sniffPlan('3: true\n', false, false)).toBe('text');
    expect(sniffPlan('da', true, false)).toBe('text');
    expect(sniffPlan('', true, false)).toBe('text');
  });

  it('judges a first line longer than the window by how it starts', () => {
    const long = 'x'.repeat(SNIFF_LIMIT_CHARS);
    expect(sniffPlan(`{"type":"text-delta","delta":"${long}`, false, false)).toBe('ndjson');
    expect(sniffPlan(`{"id":"chatcmpl-1","choices":[{"delta":{"content":"${long}`, false, false)).toBe('ndjson');
    expect(sniffPlan(`0:"${long}`, false, false)).toBe('data-stream');
    expect(sniffPlan(`{"text":"${long}`, false, false)).toBe('json-or-text');
    expect(sniffPlan(`1: ${long}`, false, false)).toBe('text');
  });

  it('treats a body starting like JSON as a whole JSON document (or text, when not labelled JSON)', () => {
    expect(sniffPlan('{\n  "text": "hi"', false, false)).toBe('json-or-text');
    expect(sniffPlan('{"text":"hi","credits_used":1}', true, true)).toBe('json');
    expect(sniffPlan('whatever', false, true)).toBe('json');
  });
});
