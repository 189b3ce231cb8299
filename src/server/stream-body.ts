// The timed body of a streamed answer: keep-alives, time to first chunk, chunk gaps, cuts and ragged writes.
import { nextMacrotask, sleep } from './clock.js';
import { randomInt, type Random } from './random.js';
import type { StreamEncoder } from './stream-dialects.js';

/** Thrown from a stream that the fault plan cuts mid-way; the HTTP layer destroys the socket. */
export class StreamCutError extends Error {
  readonly code = 'STREAM_CUT';
  constructor() {
    super('stream cut by fault injection');
    this.name = 'StreamCutError';
  }
}

export interface StreamPlan {
  encoder: StreamEncoder;
  /** The answer's text deltas; joined they are the whole answer. */
  deltas: readonly string[];
  /** Delay before the first delta (after latencyScale). */
  ttfcMs: number;
  /** gapsMs[i] is the delay before delta i + 1 (after latencyScale). */
  gapsMs: readonly number[];
  /** Fault stall after the stream opens and before anything else. */
  stallMs: number;
  /** Stop and destroy the connection after this many deltas. */
  cutAfterDeltas?: number;
  /** Present when include_usage is on. */
  usageCredits?: number;
  /** Added to the usage chunk (option usageRemaining); left out by default, as interface.md documents. */
  usageRemaining?: number;
  pingIntervalMs: number;
  /** Present when writes should be split into ragged byte pieces. */
  splitRandom?: Random;
  /** Present under the pause fault: every write first waits until the service is not paused. */
  hold?: (signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
}

const encoder = new TextEncoder();

/** One write, or many small pieces (cutting through multi-byte characters) with a macrotask between. */
async function* emit(frames: readonly string[], plan: StreamPlan): AsyncGenerator<Uint8Array> {
  const text = frames.join('');
  if (text === '') return;
  if (plan.hold) await plan.hold(plan.signal);
  const bytes = encoder.encode(text);
  if (!plan.splitRandom) {
    yield bytes;
    return;
  }
  for (let at = 0; at < bytes.length; ) {
    const size = randomInt(plan.splitRandom, 1, 5);
    yield bytes.subarray(at, at + size);
    at += size;
    await nextMacrotask();
  }
}

/** Waits, sending the dialect's keep-alive comment every pingIntervalMs meanwhile. */
async function* waitWithPings(ms: number, plan: StreamPlan): AsyncGenerator<Uint8Array> {
  const ping = plan.encoder.ping();
  let remainingMs = ms;
  while (remainingMs > 0) {
    const stepMs = ping === null ? remainingMs : Math.min(remainingMs, plan.pingIntervalMs);
    await sleep(stepMs, plan.signal);
    remainingMs -= stepMs;
    if (remainingMs > 0 && ping !== null) yield* emit([ping], plan);
  }
}

export async function* streamAnswer(plan: StreamPlan): AsyncGenerator<Uint8Array> {
  const { encoder: dialect } = plan;
  const ping = dialect.ping();
  // A comment first, so headers and the first bytes leave at once (time to first byte < first chunk).
  yield* emit([...(ping === null ? [] : [ping]), ...dialect.open()], plan);
  if (plan.stallMs > 0) await sleep(plan.stallMs, plan.signal);
  yield* waitWithPings(plan.ttfcMs, plan);
  for (const [i, delta] of plan.deltas.entries()) {
    if (i > 0) await sleep(plan.gapsMs[i - 1] ?? 0, plan.signal);
    yield* emit(i === 0 ? [...dialect.textStart(), dialect.delta(delta)] : [dialect.delta(delta)], plan);
    if (plan.cutAfterDeltas !== undefined && i + 1 >= plan.cutAfterDeltas) throw new StreamCutError();
  }
  const usage = plan.usageCredits === undefined ? null : dialect.usage(plan.usageCredits, plan.usageRemaining);
  yield* emit([...dialect.finish(), ...(usage === null ? [] : [usage]), ...dialect.close()], plan);
}

/** Splits an answer into deltas of a few words each; joined they give back the text exactly. */
export function chunkAnswer(text: string, wordsMin: number, wordsMax: number, random: Random): string[] {
  const words = text.split(/(?<=\s)(?=\S)/);
  const deltas: string[] = [];
  for (let at = 0; at < words.length; ) {
    const count = randomInt(random, wordsMin, Math.max(wordsMin, wordsMax));
    deltas.push(words.slice(at, at + count).join(''));
    at += count;
  }
  return deltas.length > 0 ? deltas : [text];
}
