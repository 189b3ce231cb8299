// Unit tests: the NDJSON dialect.
import { describe, expect, it } from 'vitest';
import { StreamError } from '../../domain/index.js';
import type { DecodedEvent } from './events.js';
import { NdjsonDecoder } from './ndjson-decoder.js';

function decode(pieces: string[]): DecodedEvent[] {
  const decoder = new NdjsonDecoder();
  return [...pieces.flatMap((piece) => decoder.feed(piece)), ...decoder.end()];
}

describe('NdjsonDecoder', () => {
  it('reads one UI chunk per line across CRLF, CR and split lines', () => {
    const events = decode(['{"type":"start"}\r\n{"type":"text-de', 'lta","delta":"a"}\r', '\n\n{"type":"finish"}\r{"type":"usage","credits_used":3}']);
    expect(events).toEqual([{ kind: 'text', text: 'a' }, { kind: 'finish' }, { kind: 'usage', creditsUsed: 3 }]);
  });

  it('throws a StreamError for a line that is not JSON', () => {
    expect(() => decode(['{"type":"finish"}\nnot json\n'])).toThrow(StreamError);
  });
});
