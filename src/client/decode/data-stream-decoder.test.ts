// Unit tests: the AI SDK data-stream dialect.
import { describe, expect, it } from 'vitest';
import { StreamError } from '../../domain/index.js';
import { DataStreamDecoder } from './data-stream-decoder.js';
import type { DecodedEvent } from './events.js';

function decode(pieces: string[]): DecodedEvent[] {
  const decoder = new DataStreamDecoder();
  return [...pieces.flatMap((piece) => decoder.feed(piece)), ...decoder.end()];
}

describe('DataStreamDecoder', () => {
  it('reads text parts, a finish step, the finish message and a usage data part', () => {
    const events = decode([
      'f:{"messageId":"m"}\n0:"Hel"\r\n0:"lo\\n"\n0:""\n',
      'e:{"finishReason":"stop","isContinued":false}\nd:{"finishReason":"stop"}\n',
      '2:[{"type":"usage","credits_used":0.1,"credits_remaining":9.9}]\n',
    ]);
    expect(events).toEqual([
      { kind: 'text', text: 'Hel' },
      { kind: 'text', text: 'lo\n' },
      { kind: 'finish', finishReason: 'stop' },
      { kind: 'finish', finishReason: 'stop' },
      { kind: 'usage', creditsUsed: 0.1, creditsRemaining: 9.9 },
    ]);
  });

  it('reads usage in a message annotation (8:) and as a bare UI chunk line', () => {
    expect(decode(['8:[{"type":"usage","credits_used":1}]\n{"type":"usage","credits_used":2}\n'])).toEqual([
      { kind: 'usage', creditsUsed: 1 },
      { kind: 'usage', creditsUsed: 2 },
    ]);
  });

  it('does not finish on a step that continues', () => {
    expect(decode(['e:{"finishReason":"tool-calls","isContinued":true}\n'])).toEqual([]);
  });

  it('turns 3: into an error event', () => {
    expect(decode(['3:"model overloaded"\n'])).toEqual([{ kind: 'error', message: 'model overloaded' }]);
  });

  it('reads a last line without a terminator', () => {
    expect(decode(['0:"a"\nd:{}'])).toEqual([{ kind: 'text', text: 'a' }, { kind: 'finish' }]);
  });

  it('throws StreamError for lines that are not data-stream parts', () => {
    expect(() => decode(['hello\n'])).toThrow(StreamError);
    expect(() => decode(['0:"unterminated\n'])).toThrow(StreamError);
    expect(() => decode(['0:42\n'])).toThrow(StreamError);
  });
});
