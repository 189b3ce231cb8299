import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { createRandom } from './random.js';
import { chunkAnswer, StreamCutError, streamAnswer, type StreamPlan } from './stream-body.js';
import { createEncoder } from './stream-dialects.js';

function plan(overrides: Partial<StreamPlan> = {}): StreamPlan {
  return { encoder: createEncoder('ui-sse', false), deltas: ['Hé ', '€5 ', 'done 🎉'], ttfcMs: 0, gapsMs: [0, 0], stallMs: 0, pingIntervalMs: 1000, ...overrides };
}

async function collect(stream: AsyncIterable<Uint8Array>): Promise<{ pieces: Uint8Array[]; text: string }> {
  const pieces: Uint8Array[] = [];
  for await (const piece of stream) pieces.push(piece);
  return { pieces, text: Buffer.concat(pieces).toString('utf8') };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('chunking an answer', () => {
  it('gives back the exact text when the deltas are joined', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.integer({ min: 1, max: 4 }), fc.integer(), (text, min, seed) => {
        const deltas = chunkAnswer(text, min, min + 2, createRandom(seed));
        expect(deltas.join('')).toBe(text);
      }),
    );
    expect(chunkAnswer('one two three four five', 1, 1, createRandom(1))).toEqual(['one ', 'two ', 'three ', 'four ', 'five']);
  });
});

describe('streaming an answer', () => {
  it('sends a keep-alive first, then start, the text, finish and [DONE]', async () => {
    const { text } = await collect(streamAnswer(plan({ usageCredits: 0.1 })));
    expect(text.startsWith(': ping\n\ndata: {"type":"start"}')).toBe(true);
    expect(text).toContain('"delta":"done 🎉"');
    expect(text.indexOf('"finish"')).toBeLessThan(text.indexOf('"usage"'));
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('splits writes into small pieces, some inside multi-byte characters', async () => {
    const { pieces, text } = await collect(streamAnswer(plan({ splitRandom: createRandom(9) })));
    const whole = (await collect(streamAnswer(plan()))).text;
    expect(text).toBe(whole);
    expect(pieces.every((p) => p.length <= 5)).toBe(true);
    const decoderFails = pieces.some((p) => {
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(p);
        return false;
      } catch {
        return true;
      }
    });
    expect(decoderFails).toBe(true);
  });

  it('cuts after the planned number of deltas', async () => {
    const pieces: string[] = [];
    const run = async (): Promise<void> => {
      for await (const piece of streamAnswer(plan({ cutAfterDeltas: 1 }))) pieces.push(Buffer.from(piece).toString());
    };
    await expect(run()).rejects.toBeInstanceOf(StreamCutError);
    expect(pieces.join('')).toContain('Hé ');
    expect(pieces.join('')).not.toContain('€5');
  });

  it('sends a first byte at once, pings while waiting for the first chunk, and waits exactly as planned (fake timers)', async () => {
    vi.useFakeTimers();
    const pieces: string[] = [];
    let done = false;
    const reading = (async () => {
      for await (const piece of streamAnswer(plan({ ttfcMs: 120, pingIntervalMs: 25 }))) pieces.push(Buffer.from(piece).toString());
      done = true;
    })();
    await vi.advanceTimersByTimeAsync(0);
    // The first bytes (a ping and the stream's opening) leave before the first chunk's wait.
    expect(pieces).toHaveLength(1);
    expect(pieces[0]).toMatch(/^: ping\n\n/);
    expect(pieces[0]).not.toContain('Hé');
    await vi.advanceTimersByTimeAsync(119);
    expect(pieces.join('')).not.toContain('Hé');
    expect(pieces.join('').split(': ping').length - 1).toBe(5); // the first, then at 25, 50, 75, 100 ms
    await vi.advanceTimersByTimeAsync(1);
    await reading;
    expect(done).toBe(true);
    expect(pieces.join('')).toContain('Hé');
  });

  it('stops waiting when the client goes away', async () => {
    const controller = new AbortController();
    const iterator = streamAnswer(plan({ ttfcMs: 10_000, signal: controller.signal }))[Symbol.asyncIterator]();
    await iterator.next();
    const pending = iterator.next();
    controller.abort(new Error('gone'));
    await expect(pending).rejects.toThrow('gone');
  });
});
