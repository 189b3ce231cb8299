import { describe, expect, it } from 'vitest';
import { UiChunkSchema, type StreamDialect } from '../protocol/index.js';
import { createEncoder } from './stream-dialects.js';

function render(dialect: StreamDialect, crlf = false): string {
  const e = createEncoder(dialect, crlf);
  return [e.ping() ?? '', ...e.open(), ...e.textStart(), e.delta('Hé '), e.delta('€5 "ok"'), ...e.finish(), e.usage(0.04975) ?? '', ...e.close()].join('');
}

describe('stream dialects', () => {
  it('ui-sse: AI SDK UI-message chunks, usage after finish, then [DONE]', () => {
    const body = render('ui-sse');
    expect(body.startsWith(': ping\n\n')).toBe(true);
    const data = body.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6));
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((d) => UiChunkSchema.parse(JSON.parse(d)));
    expect(chunks.map((c) => c.type)).toEqual(['start', 'text-start', 'text-delta', 'text-delta', 'text-end', 'finish', 'usage']);
    expect(chunks.filter((c) => c.type === 'text-delta').map((c) => ('delta' in c ? c.delta : '')).join('')).toBe('Hé €5 "ok"');
    expect(chunks.at(-1)).toEqual({ type: 'usage', credits_used: 0.04975 });
  });

  it('data-stream: 0: text parts, d: finish, 2: usage', () => {
    expect(render('data-stream')).toBe('0:"Hé "\n0:"€5 \\"ok\\""\nd:{"finishReason":"stop"}\n2:[{"type":"usage","credits_used":0.04975}]\n');
  });

  it('openai-sse: choices deltas, finish_reason, usage, [DONE]', () => {
    const data = render('openai-sse').split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6));
    expect(data).toEqual([
      '{"choices":[{"index":0,"delta":{"content":"Hé "}}]}',
      '{"choices":[{"index":0,"delta":{"content":"€5 \\"ok\\""}}]}',
      '{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}',
      '{"type":"usage","credits_used":0.04975}',
      '[DONE]',
    ]);
  });

  it('ndjson: one UI chunk per line; text: the answer only', () => {
    const lines = render('ndjson').trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { type: string }).type)).toEqual(['start', 'text-start', 'text-delta', 'text-delta', 'text-end', 'finish', 'usage']);
    expect(createEncoder('ndjson', false).contentType).toMatch(/^application\/x-ndjson/);
    expect(render('text')).toBe('Hé €5 "ok"');
  });

  it('uses CRLF line endings when asked', () => {
    expect(render('ui-sse', true)).toContain('data: {"type":"start"}\r\n\r\n');
    expect(render('ui-sse', true).replace(/\r\n/g, '')).not.toContain('\n');
    expect(render('data-stream', true)).toContain('d:{"finishReason":"stop"}\r\n');
  });

  it('adds credits_remaining to the usage chunk only when given it (option usageRemaining)', () => {
    for (const dialect of ['ui-sse', 'ndjson', 'data-stream', 'openai-sse'] as const) {
      expect(createEncoder(dialect, false).usage(0.1, 99.9), dialect).toContain('"credits_used":0.1,"credits_remaining":99.9');
      expect(createEncoder(dialect, false).usage(0.1), dialect).not.toContain('credits_remaining');
    }
  });
});
