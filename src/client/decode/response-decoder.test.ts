// Unit tests: UTF-8 across chunks, dialect sniffing end to end, and the decodeStream API.
import { describe, expect, it } from 'vitest';
import { decodeStream } from '../decode-stream.js';
import type { DecodedEvent } from './events.js';
import { ResponseDecoder } from './response-decoder.js';
import type { ResponseShape } from './detect.js';

const utf8 = new TextEncoder();

function run(shape: Partial<ResponseShape>, pieces: (string | Uint8Array)[]): { dialect: string | null; events: DecodedEvent[] } {
  const decoder = new ResponseDecoder({ contentType: null, headers: {}, streamingRequested: true, dialect: 'auto', ...shape });
  const events = pieces.flatMap((piece) => decoder.push(typeof piece === 'string' ? utf8.encode(piece) : piece));
  events.push(...decoder.end());
  return { dialect: decoder.dialect, events };
}

describe('ResponseDecoder', () => {
  it('keeps a UTF-8 character split across chunks intact', () => {
    const bytes = utf8.encode('é😀');
    const { events } = run({ contentType: 'text/plain' }, [bytes.subarray(0, 1), bytes.subarray(1, 3), bytes.subarray(3)]);
    expect(events.filter((e) => e.kind === 'text').map((e) => (e.kind === 'text' ? e.text : '')).join('')).toBe('é😀');
  });

  it('keeps a leading byte-order mark in a plain-text answer', () => {
    const { events } = run({ dialect: 'text' }, ['\uFEFFhi']);
    expect(events[0]).toEqual({ kind: 'text', text: '\uFEFFhi' });
  });

  it('sniffs a data stream behind text/plain without the AI SDK header', () => {
    const { dialect, events } = run({ contentType: 'text/plain; charset=utf-8' }, ['0', ':"a"\n0:"b"\nd:{}\n']);
    expect(dialect).toBe('data-stream');
    expect(events).toEqual([{ kind: 'text', text: 'a' }, { kind: 'text', text: 'b' }, { kind: 'finish' }]);
  });

  it('emits a plain-text answer as soon as its first bytes rule out every framed dialect', () => {
    const decoder = new ResponseDecoder({ contentType: 'text/plain', headers: {}, streamingRequested: true, dialect: 'auto' });
    expect(decoder.push(utf8.encode('Hello'))).toEqual([{ kind: 'text', text: 'Hello' }]);
    expect(decoder.dialect).toBe('text');
    expect(decoder.end()).toEqual([{ kind: 'finish' }]);
  });

  it('recognises a JSON answer sent to a streaming request', () => {
    const raw = '{"text":"hi","credits_used":1,"credits_remaining":2}';
    const { dialect, events } = run({ contentType: 'application/json' }, [raw]);
    expect(dialect).toBe('json');
    expect(events).toEqual([{ kind: 'body', raw }]);
  });

  it('falls back to text for an unlabelled body that starts like JSON but is not', () => {
    const { dialect, events } = run({ contentType: null }, ['{curly} text']);
    expect(dialect).toBe('text');
    expect(events).toEqual([{ kind: 'text', text: '{curly} text' }, { kind: 'finish' }]);
  });

  it('reads a whole JSON body when no stream was asked for', () => {
    const { dialect, events } = run({ streamingRequested: false, contentType: 'text/html' }, ['<html>', '</html>']);
    expect(dialect).toBe('json');
    expect(events).toEqual([{ kind: 'body', raw: '<html></html>' }]);
  });
});

describe('decodeStream', () => {
  async function* source(pieces: string[]): AsyncGenerator<Uint8Array> {
    for (const piece of pieces) yield utf8.encode(piece);
  }

  it('yields timed chunk, finish and usage events', async () => {
    let clock = 0;
    const events = [];
    for await (const event of decodeStream(source(['{"type":"text-delta","delta":"a"}\n', '{"type":"finish"}\n{"type":"usage","credits_used":1}\n']), {
      contentType: 'application/x-ndjson',
      now: () => ++clock,
    })) {
      events.push(event);
    }
    expect(events).toEqual([
      { kind: 'chunk', text: 'a', atMs: 1 },
      { kind: 'finish', atMs: 2 },
      { kind: 'usage', creditsUsed: 1, atMs: 2 },
    ]);
  });

  it('throws a StreamError when the stream ends without finish', async () => {
    const consume = async (): Promise<void> => {
      for await (const _event of decodeStream(source(['data: {"type":"text-delta","delta":"a"}\n\n']))) {
        // drain
      }
    };
    await expect(consume()).rejects.toMatchObject({ code: 'E_STREAM' });
  });
});
