// Bench d: stream decoder speed. A large synthetic answer is encoded in each dialect by the reference
// service's own encoders, then fed to the client's ResponseDecoder (auto-detected, as on the wire).
import { Buffer } from 'node:buffer';
import { TextDecoder, TextEncoder } from 'node:util';
import { performance } from 'node:perf_hooks';
import { ResponseDecoder } from '../dist/client/index.js';
import { STREAM_DIALECTS } from '../dist/protocol/index.js';
import { createEncoder } from '../dist/server/stream-dialects.js';
import { printMethod, printTable, round, summarise } from './lib/stats.mjs';
import { seeded } from './lib/synthetic.mjs';

const MB = 1024 * 1024;
const WORDS = ['the', 'refund', 'window', 'is', '30', 'days', '—', 'plans', 'cost', '€29', 'per', 'agent', '🚀', 'Settings', '→', 'People', 'invite', '日本語', 'and', 'naïve'];

/** Deltas of 1-4 words (like the reference service's chunks) until `textBytes` of text. */
function deltas(textBytes) {
  const random = seeded(7);
  const out = [];
  let size = 0;
  while (size < textBytes) {
    const n = 1 + Math.floor(random() * 4);
    let d = '';
    for (let i = 0; i < n; i++) d += `${WORDS[Math.floor(random() * WORDS.length)]}${random() < 0.1 ? '\n' : ' '}`;
    out.push(d);
    size += Buffer.byteLength(d);
  }
  return out;
}

/** The whole response body of one dialect, and the headers the service sends with it. */
function encode(dialect, parts, crlf) {
  const encoder = createEncoder(dialect, crlf);
  const frames = [...encoder.open(), ...encoder.textStart(), ...parts.map((d) => encoder.delta(d)), ...encoder.finish(), encoder.usage(0.04975) ?? '', ...encoder.close()];
  const bytes = new TextEncoder().encode(frames.join(''));
  return { bytes, headers: { 'content-type': encoder.contentType, ...encoder.extraHeaders } };
}

function decodeOnce({ bytes, headers }, sliceBytes) {
  const decoder = new ResponseDecoder({ contentType: headers['content-type'], headers, streamingRequested: true, dialect: 'auto' });
  let textLength = 0;
  let events = 0;
  const start = performance.now();
  for (let at = 0; at < bytes.length; at += sliceBytes) {
    for (const event of decoder.push(bytes.subarray(at, at + sliceBytes))) {
      events++;
      if (event.kind === 'text') textLength += event.text.length;
    }
  }
  for (const event of decoder.end()) {
    events++;
    if (event.kind === 'text') textLength += event.text.length;
  }
  return { ms: performance.now() - start, textLength, events, dialect: decoder.dialect };
}

/** The floor: UTF-8 decoding of the same bytes in the same slices, nothing else. */
function utf8Once({ bytes }, sliceBytes) {
  const utf8 = new TextDecoder();
  let length = 0;
  const start = performance.now();
  for (let at = 0; at < bytes.length; at += sliceBytes) length += utf8.decode(bytes.subarray(at, at + sliceBytes), { stream: true }).length;
  length += utf8.decode().length;
  return { ms: performance.now() - start, length };
}

export async function benchDecoder({ quick = false } = {}) {
  const textBytes = quick ? 1 * MB : 4 * MB;
  const parts = deltas(textBytes);
  const expectedLength = parts.reduce((sum, d) => sum + d.length, 0);
  const runs = quick ? 2 : 3;
  const rows = [];
  for (const dialect of STREAM_DIALECTS) {
    const body = encode(dialect, parts, false);
    for (const sliceBytes of [64 * 1024, 256]) {
      decodeOnce(body, sliceBytes); // warm-up
      const timings = [];
      let last;
      for (let r = 0; r < runs; r++) {
        last = decodeOnce(body, sliceBytes);
        timings.push(last.ms);
      }
      if (last.textLength !== expectedLength || last.dialect !== dialect) throw new Error(`${dialect}: decoded ${last.textLength} chars as ${last.dialect}, expected ${expectedLength}`);
      const floor = summarise(Array.from({ length: runs }, () => utf8Once(body, sliceBytes).ms));
      const ms = summarise(timings);
      const wireMb = body.bytes.length / MB;
      rows.push({
        dialect, slice: sliceBytes >= 1024 ? `${sliceBytes / 1024} KiB` : `${sliceBytes} B`, wire_mb: round(wireMb, 1), deltas: parts.length,
        ms_median: round(ms.p50, 1), wire_mb_per_s: round(wireMb / (ms.p50 / 1000), 1), text_mb_per_s: round(textBytes / MB / (ms.p50 / 1000), 1),
        deltas_per_ms: round(parts.length / ms.p50, 0), utf8_only_mb_per_s: round(wireMb / (floor.p50 / 1000), 0),
      });
    }
  }
  console.log(`\n== d. Stream decoder speed (${(textBytes / MB).toFixed(0)} MB of answer text per dialect) ==`);
  printMethod(
    `${parts.length} deltas of 1-4 words (with €, →, —, 🚀, 日本語 and newlines) are encoded by the reference service's createEncoder() for each dialect ` +
      `(LF line ends), then pushed through one client ResponseDecoder with the service's headers and dialect auto-detection, in 64 KiB slices (a socket read) ` +
      `and in 256-byte slices (a ragged stream). Median of ${runs} runs after one warm-up, performance.now(); the decoded text length is checked. ` +
      `wire MB/s counts the encoded bytes, text MB/s the answer's UTF-8 bytes; utf8_only is TextDecoder alone on the same slices (the floor).`,
  );
  printTable('d. decoder throughput', ['dialect', 'slice', 'wire_mb', 'deltas', 'ms_median', 'wire_mb_per_s', 'text_mb_per_s', 'deltas_per_ms', 'utf8_only_mb_per_s'], rows);
  return { textBytes, rows };
}
