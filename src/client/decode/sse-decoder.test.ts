// Unit tests: the ui-sse and openai-sse dialects.
import { describe, expect, it } from 'vitest';
import { StreamError } from '../../domain/index.js';
import type { DecodedEvent } from './events.js';
import { SseDecoder } from './sse-decoder.js';

function decode(decoder: SseDecoder, pieces: string[]): DecodedEvent[] {
  return [...pieces.flatMap((piece) => decoder.feed(piece)), ...decoder.end()];
}

const text = (events: DecodedEvent[]): string => events.map((e) => (e.kind === 'text' ? e.text : '')).join('');

describe('SseDecoder: ui-sse', () => {
  const stream = [
    'data: {"type":"start","messageId":"m1"}\n\n',
    ': ping\n\n',
    'data: {"type":"text-start","id":"t"}\n\n',
    'data: {"type":"text-delta","id":"t","delta":"Hel"}\n\n',
    '\n',
    'data: {"type":"text-delta","id":"t","delta":"lo \\r\\n wörld"}\r\n\r\n',
    'data: {"type":"text-delta","id":"t","delta":""}\n\n',
    'data: {"type":"text-end","id":"t"}\n\n',
    'data: {"type":"finish","finishReason":"stop"}\r\r',
    'data: {"type":"usage","credits_used":0.04975,"credits_remaining":1853.74585}\n\n',
    'data: [DONE]\n\n',
  ].join('');

  it('decodes text, finish and usage, skipping comments, blank lines and empty deltas', () => {
    const decoder = new SseDecoder();
    const events = decode(decoder, [stream]);
    expect(decoder.dialect).toBe('ui-sse');
    expect(events).toEqual([
      { kind: 'text', text: 'Hel' },
      { kind: 'text', text: 'lo \r\n wörld' },
      { kind: 'finish', finishReason: 'stop' },
      { kind: 'usage', creditsUsed: 0.04975, creditsRemaining: 1853.74585 },
    ]);
  });

  it('gives the same events when fed one character at a time', () => {
    expect(decode(new SseDecoder(), [...stream])).toEqual(decode(new SseDecoder(), [stream]));
  });

  it('joins a payload spread over several data lines', () => {
    const events = decode(new SseDecoder(), ['data: {"type":"text-delta",\ndata:  "delta":"a\\nb"}\n\n']);
    expect(text(events)).toBe('a\nb');
  });

  it('drops a leading byte-order mark and ignores what follows [DONE]', () => {
    const events = decode(new SseDecoder(), ['\uFEFFdata: {"type":"text-delta","delta":"x"}\n\ndata: [DONE]\n\ndata: {"type":"text-delta","delta":"y"}\n\n']);
    expect(text(events)).toBe('x');
  });

  it('still reads a last event the server did not close with a blank line', () => {
    expect(decode(new SseDecoder(), ['data: {"type":"finish"}'])).toEqual([{ kind: 'finish' }]);
  });

  it('reports error chunks and `event: error` as error events', () => {
    expect(decode(new SseDecoder(), ['data: {"type":"error","errorText":"boom"}\n\n'])).toEqual([{ kind: 'error', message: 'boom' }]);
    expect(decode(new SseDecoder(), ['event: error\ndata: overloaded\n\n'])).toEqual([{ kind: 'error', message: 'overloaded' }]);
  });

  it('throws a StreamError for a data field that is not JSON', () => {
    expect(() => decode(new SseDecoder(), ['data: hello\n\n'])).toThrow(StreamError);
  });

  it('throws a StreamError for a text-delta without a string delta', () => {
    expect(() => decode(new SseDecoder(), ['data: {"type":"text-delta","delta":5}\n\n'])).toThrow(StreamError);
  });
});

describe('SseDecoder: openai-sse', () => {
  const chunk = (delta: object, finish: string | null = null): string =>
    `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

  it('detects the OpenAI shape and reads content, finish_reason and usage', () => {
    const decoder = new SseDecoder();
    const events = decode(decoder, [
      chunk({ role: 'assistant' }),
      chunk({ content: 'Hi' }),
      chunk({ content: ' there' }),
      chunk({}, 'stop'),
      'data: {"choices":[],"usage":{"prompt_tokens":3,"credits_used":0.5}}\n\n',
      'data: {"type":"usage","credits_used":0.25}\n\n',
      'data: [DONE]\n\n',
    ]);
    expect(decoder.dialect).toBe('openai-sse');
    expect(events).toEqual([
      { kind: 'text', text: 'Hi' },
      { kind: 'text', text: ' there' },
      { kind: 'finish', finishReason: 'stop' },
      { kind: 'usage', creditsUsed: 0.5 },
      { kind: 'usage', creditsUsed: 0.25 },
    ]);
  });

  it('reports an error object sent alone, as OpenAI does mid-stream', () => {
    const events = decode(new SseDecoder(), [chunk({ content: 'Hi' }), 'data: {"error":{"message":"The server had an error","type":"server_error"}}\n\n']);
    expect(events).toEqual([{ kind: 'text', text: 'Hi' }, { kind: 'error', message: 'The server had an error' }]);
    expect(decode(new SseDecoder(), ['data: {"error":"Unauthorized"}\n\n'])).toEqual([{ kind: 'error', message: 'Unauthorized' }]);
  });

  it('ignores token usage without credits', () => {
    expect(decode(new SseDecoder(), ['data: {"choices":[],"usage":{"total_tokens":9}}\n\n'])).toEqual([]);
  });

  it('is not labelled ui-sse by a usage chunk that comes first', () => {
    const decoder = new SseDecoder();
    decode(decoder, ['data: {"type":"usage","credits_used":0.1}\n\n', chunk({ content: 'Hi' }, 'stop')]);
    expect(decoder.dialect).toBe('openai-sse');
  });

  it('keeps a forced label', () => {
    const decoder = new SseDecoder('openai-sse');
    decode(decoder, ['data: {"type":"text-delta","delta":"x"}\n\n']);
    expect(decoder.dialect).toBe('openai-sse');
  });
});

describe('SseDecoder: the plain text-delta fast path', () => {
  it('gives what JSON.parse gives, and leaves escapes, other key orders and raw control characters to it', () => {
    const frames = [
      '{"type":"text-delta","id":"t","delta":"plain words "}',
      '{"type":"text-delta","id":"0","delta":""}',
      '{"type":"text-delta","id":"t","delta":"esc \\"q\\" \\u00e9\\n"}',
      '{"id":"t","type":"text-delta","delta":"reordered"}',
      '{"type":"text-delta","id":"t","delta":"Grüße 😀"}',
      '{"type":"text-delta","id":"t","delta":"a","delta":"dup"}',
    ];
    const events = decode(new SseDecoder(), frames.map((f) => `data: ${f}\n\n`));
    const expected = frames.map((f) => (JSON.parse(f) as { delta: string }).delta).filter((d) => d !== '');
    expect(events.filter((e) => e.kind === 'text').map((e) => (e.kind === 'text' ? e.text : ''))).toEqual(expected);
    const decoder = new SseDecoder();
    expect(decoder.dialect).toBe('ui-sse');
    expect(() => decode(decoder, ['data: {"type":"text-delta","id":"t","delta":"tab\there"}\n\n'])).toThrow(StreamError);
  });

  it('settles the dialect as a parsed ui chunk does', () => {
    const decoder = new SseDecoder();
    decode(decoder, ['data: {"type":"text-delta","id":"t","delta":"x"}\n\n', 'data: {"choices":[{"delta":{"content":"y"}}]}\n\n']);
    expect(decoder.dialect).toBe('ui-sse');
  });
});
