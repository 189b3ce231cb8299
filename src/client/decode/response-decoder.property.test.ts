// Property tests: any text, encoded in any dialect and cut at any byte offsets, decodes back to
// exactly that text; garbage never escapes as anything but a typed KbError.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KbError } from '../../domain/index.js';
import { STREAM_DIALECTS, type StreamDialect } from '../../protocol/index.js';
import { encodeDialect, splitBytes, type EncodeOptions } from '../../test-support/dialect-encoders.js';
import type { DecodedEvent } from './events.js';
import type { ResponseShape } from './detect.js';
import { ResponseDecoder } from './response-decoder.js';

const utf8 = new TextEncoder();
const NUM_RUNS = 150;

const CONTENT_TYPE: Record<StreamDialect, string | null> = {
  'ui-sse': 'text/event-stream',
  'openai-sse': 'text/event-stream; charset=utf-8',
  'data-stream': 'text/plain; charset=utf-8',
  ndjson: null,
  text: 'text/plain',
};

const tricky = fc.constantFrom('', '\r\n', '\n', '\r', '\r\r\n', 'é', '😀', '日本語', '\uFEFF', 'data: x', ': ping', '[DONE]', '"', '\\', '\u2028', '\0');
const delta = fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), tricky, fc.string({ unit: 'grapheme', maxLength: 6 }), fc.string({ unit: fc.constantFrom('é', '😀', '語', '\r', '\n', 'a'), maxLength: 8 }));
const deltas = fc.array(delta, { maxLength: 12 });
const encodeOptions: fc.Arbitrary<EncodeOptions> = fc.record({
  eol: fc.constantFrom<'\n' | '\r\n' | '\r'>('\n', '\r\n', '\r'),
  keepAlive: fc.boolean(),
  multiLineData: fc.boolean(),
  sseFields: fc.boolean(),
  usage: fc.option(fc.record({ credits_used: fc.double({ min: 0, max: 10, noNaN: true }) }), { nil: undefined }),
  usageFirst: fc.boolean(),
  bom: fc.boolean(),
  done: fc.boolean(),
  bare: fc.boolean(),
});
// Many cuts: a cut must often land inside a multi-byte character or between CR and LF.
const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 120 });

function decodePieces(shape: ResponseShape, pieces: Uint8Array[]): { dialect: string | null; events: DecodedEvent[] } {
  const decoder = new ResponseDecoder(shape);
  const events = pieces.flatMap((piece) => decoder.push(piece));
  events.push(...decoder.end());
  return { dialect: decoder.dialect, events };
}

const textOf = (events: DecodedEvent[]): string => events.map((e) => (e.kind === 'text' ? e.text : '')).join('');

describe.each(STREAM_DIALECTS)('%s round trip', (dialect) => {
  it('reassembles exactly the text that was sent, wherever the bytes are cut', () => {
    fc.assert(
      fc.property(deltas, encodeOptions, cuts, fc.boolean(), (parts, options, cutPoints, forced) => {
        const bytes = utf8.encode(encodeDialect(dialect, parts, options));
        const shape: ResponseShape = {
          contentType: CONTENT_TYPE[dialect],
          headers: {},
          streamingRequested: true,
          // Auto-detecting plain text is a guess by design; the property covers it when forced.
          dialect: forced || dialect === 'text' ? dialect : 'auto',
        };
        const { dialect: detected, events } = decodePieces(shape, splitBytes(bytes, cutPoints));
        expect(textOf(events)).toBe(parts.join(''));
        // One byte at a time: every multi-byte character and every CRLF is split somewhere.
        expect(textOf(decodePieces(shape, [...bytes].map((byte) => Uint8Array.of(byte))).events)).toBe(parts.join(''));
        expect(events.filter((e) => e.kind === 'finish').length).toBeGreaterThan(0);
        if (dialect !== 'text' || parts.join('') !== '') expect(detected).toBe(dialect);
        const usage = events.find((e) => e.kind === 'usage');
        if (options.usage && dialect !== 'text') expect(usage).toEqual({ kind: 'usage', creditsUsed: options.usage.credits_used });
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('garbage', () => {
  const shapes = fc.record({
    contentType: fc.constantFrom(null, 'text/event-stream', 'application/x-ndjson', 'application/json', 'text/plain'),
    headers: fc.constant({}),
    streamingRequested: fc.boolean(),
    dialect: fc.constantFrom<'auto' | StreamDialect>('auto', ...STREAM_DIALECTS),
  });
  const lineish = fc.array(fc.constantFrom('data: ', '0:', 'd:', '{"type":', '"text-delta"', '"delta":', '}', '\n', '\r', ':', '[DONE]', '"', 'é', '\xff'), { maxLength: 30 });

  it('never throws anything but a typed KbError', () => {
    const garbage = fc.oneof(fc.uint8Array({ maxLength: 300 }), lineish.map((tokens) => utf8.encode(tokens.join(''))));
    fc.assert(
      fc.property(shapes, garbage, cuts, (shape, bytes, cutPoints) => {
        try {
          decodePieces(shape, splitBytes(bytes, cutPoints));
        } catch (err) {
          expect(err).toBeInstanceOf(KbError);
        }
      }),
      { numRuns: NUM_RUNS * 2 },
    );
  });
});

describe('very long lines', () => {
  // Longer than the sniffing window, so detection cannot wait for the end of the first line.
  const long = fc.tuple(fc.constantFrom('x', 'é', '😀', '\\n'), fc.integer({ min: 65 * 1024, max: 80 * 1024 })).map(([unit, count]) => unit.repeat(Math.ceil(count / unit.length)));
  const longDeltas = fc.tuple(long, deltas).map(([first, rest]) => [first, ...rest]);
  const coarseCuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 });

  it.each(STREAM_DIALECTS)('%s: a delta longer than the sniffing window comes back whole', (dialect) => {
    fc.assert(
      fc.property(longDeltas, encodeOptions, coarseCuts, (parts, options, cutPoints) => {
        const bytes = utf8.encode(encodeDialect(dialect, parts, options));
        const shape: ResponseShape = { contentType: CONTENT_TYPE[dialect], headers: {}, streamingRequested: true, dialect: dialect === 'text' ? 'text' : 'auto' };
        // One cut just before the first line ends: sniffing has seen more than its window, not the line's end.
        const firstEol = bytes.findIndex((byte) => byte === 0x0a || byte === 0x0d);
        const inFirstLine = firstEol > 0 ? [(firstEol - 1) / bytes.length] : [];
        const { dialect: detected, events } = decodePieces(shape, splitBytes(bytes, [...cutPoints, ...inFirstLine]));
        expect(detected).toBe(dialect);
        expect(textOf(events) === parts.join('')).toBe(true);
      }),
      { numRuns: 12 },
    );
  });
});
