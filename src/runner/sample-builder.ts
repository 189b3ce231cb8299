// Turns what the client returned (an answer or a typed error) into a Sample: times relative to send.
import type { AnswerMarks, AnswerResult, ContentChunk } from '../domain/answer.js';
import type { KbError } from '../domain/errors.js';
import { HttpError } from '../domain/errors.js';
import type { Endpoint, HttpMethod, Outcome, Sample } from '../domain/sample.js';
import { roundMs } from './clock.js';
import { formatItemId } from '../plan/item-id.js';
import type { PlanRequest } from '../plan/types.js';
import { NOTHING_SPENT, savedCredits } from '../store/answer-key.js';

export interface SampleContext {
  endpoint: Endpoint;
  method: HttpMethod;
  streaming: boolean;
  conversationId: string | null;
  attempts: number;
  startedAt: string;
  offsetMs: number;
}

/** Characters as a reader counts them (code points), without building an array per answer. */
export function codePoints(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) count -= 1;
    }
  }
  return count;
}

const since = (sentAt: number, at: number | null): number | null => (at === null ? null : roundMs(at - sentAt));

const NO_GAPS = Object.freeze({ mean: null, max: null });

function gaps(chunks: ContentChunk[]): { readonly mean: number | null; readonly max: number | null } {
  if (chunks.length < 2) return NO_GAPS;
  let sum = 0;
  let max = 0;
  for (let i = 1; i < chunks.length; i += 1) {
    const gap = chunks[i]!.atMs - chunks[i - 1]!.atMs;
    sum += gap;
    max = Math.max(max, gap);
  }
  return { mean: roundMs(sum / (chunks.length - 1)), max: roundMs(max) };
}

type Timings = Pick<Sample, 'ttfb_ms' | 'ttfc_ms' | 'last_chunk_ms' | 'finish_ms' | 'usage_ms' | 'latency_ms' | 'gap_mean_ms' | 'gap_max_ms'>;

function timings(marks: AnswerMarks, chunks: ContentChunk[]): Timings {
  const { sentAt } = marks;
  const gap = gaps(chunks);
  // The answer ends at its finish event; a dialect without one (plain text) ends with the body.
  const answerEnd = marks.finishAt ?? marks.endAt;
  return {
    ttfb_ms: since(sentAt, marks.headersAt),
    ttfc_ms: since(sentAt, marks.firstChunkAt),
    last_chunk_ms: since(sentAt, marks.lastChunkAt),
    finish_ms: since(sentAt, marks.finishAt),
    usage_ms: since(sentAt, marks.usageAt),
    latency_ms: roundMs(answerEnd - sentAt),
    gap_mean_ms: gap.mean,
    gap_max_ms: gap.max,
  };
}

type Result = Pick<Sample, 'status' | 'outcome' | 'error' | 'chunks' | 'chars' | 'text' | 'credits_used' | 'credits_remaining' | 'credits_unknown'>;

/**
 * The one place a Sample is made: a single object literal with every field in the order of the
 * result line, so each sample has one shape (spreading parts into it showed in the profile).
 */
function sampleOf(spec: PlanRequest, ctx: SampleContext, t: Timings, o: Result, dialect?: string): Sample {
  const sample: Sample = {
    item_id: formatItemId(spec.id), case_id: spec.case_id, thread_id: spec.thread_id, turn: spec.turn, model: spec.model, repeat: spec.repeat,
    endpoint: ctx.endpoint, method: ctx.method, streaming: ctx.streaming, conversation_id: ctx.conversationId,
    started_at: ctx.startedAt, offset_ms: roundMs(ctx.offsetMs), attempts: ctx.attempts, prompt: spec.prompt,
    ttfb_ms: t.ttfb_ms, ttfc_ms: t.ttfc_ms, last_chunk_ms: t.last_chunk_ms, finish_ms: t.finish_ms, usage_ms: t.usage_ms,
    latency_ms: t.latency_ms, gap_mean_ms: t.gap_mean_ms, gap_max_ms: t.gap_max_ms,
    status: o.status, outcome: o.outcome, error: o.error, chunks: o.chunks, chars: o.chars, text: o.text,
    credits_used: o.credits_used, credits_remaining: o.credits_remaining, credits_unknown: o.credits_unknown,
    checks: [], pass: false,
  };
  if (dialect !== undefined) sample.stream_dialect = dialect;
  // A create line asks nothing (its spec is the first turn's, emptied): it has no question.
  if (spec.question_key !== undefined && ctx.endpoint !== 'create') sample.question_key = spec.question_key;
  if (spec.expected_failure !== undefined) sample.expected_failure = spec.expected_failure;
  if (spec.tags !== undefined) sample.tags = [...spec.tags];
  if (spec.repeat_pass !== undefined) sample.repeat_pass = spec.repeat_pass;
  return sample;
}

export function sampleFromAnswer(spec: PlanRequest, ctx: SampleContext, answer: AnswerResult): Sample {
  const sample = sampleOf(spec, ctx, timings(answer.marks, answer.chunks), {
    status: answer.status, outcome: 'ok', error: null, chunks: answer.chunks.length, chars: codePoints(answer.text), text: answer.text,
    credits_used: answer.creditsUsed, credits_remaining: answer.creditsRemaining, credits_unknown: answer.creditsUsed === null,
  }, answer.dialect);
  if (answer.creditsInvalid !== undefined) sample.credits_invalid = answer.creditsInvalid;
  return sample;
}

export function outcomeOf(error: KbError): Outcome {
  if (error instanceof HttpError) return 'http_error';
  switch (error.code) {
    case 'E_TIMEOUT':
      return 'timeout';
    case 'E_CONNECTION':
    case 'E_HEADERS_OVERFLOW':
    case 'E_ABORTED':
      return 'network_error';
    default:
      return 'stream_error';
  }
}

const NO_TIMINGS: Timings = {
  ttfb_ms: null, ttfc_ms: null, last_chunk_ms: null, finish_ms: null, usage_ms: null,
  latency_ms: null, gap_mean_ms: null, gap_max_ms: null,
};

export function sampleFromError(spec: PlanRequest, ctx: SampleContext, error: KbError): Sample {
  const partial = error.partial;
  return sampleOf(spec, ctx, partial ? timings(partial.marks, partial.chunks) : NO_TIMINGS, {
    status: error instanceof HttpError ? error.statusCode : (partial?.status ?? null),
    outcome: outcomeOf(error),
    error: { code: error.code, message: error.message },
    chunks: partial?.chunks.length ?? 0,
    chars: partial ? codePoints(partial.text) : 0,
    text: partial?.text ?? '',
    credits_used: null,
    credits_remaining: null,
    // Not an answer: summary.json counts failed requests apart (metrics/request-stats.ts mayHaveBeenCharged).
    credits_unknown: false,
  });
}

/** A turn never sent because an earlier turn of its thread failed (or its conversation was not created). */
export function skippedSample(spec: PlanRequest, ctx: SampleContext, reason: string): Sample {
  return sampleOf(spec, { ...ctx, attempts: 0 }, NO_TIMINGS, {
    status: null, outcome: 'skipped', error: { code: 'E_SKIPPED', message: reason }, chunks: 0, chars: 0, text: '',
    credits_used: null, credits_remaining: null, credits_unknown: false,
  });
}

/**
 * A request still in flight when the graceful stop ended (or a second signal cut it short), cut by
 * the harness: recorded, not lost. Its times run to the cut (corrected from its intended start), so
 * an outstanding request shows how long it waited; summary.json counts it as a failed request the
 * service may have charged.
 */
export function interruptedSample(spec: PlanRequest, ctx: SampleContext, waitedMs: number, graceMs: number | null, bySignal = false): Sample {
  const grace = graceMs === null ? '' : ` (--graceful-stop ${Math.round(graceMs / 100) / 10}s)`;
  const when = bySignal ? 'when a second signal cut the graceful stop short' : `when the graceful stop ended${grace}`;
  return sampleOf(spec, ctx, { ...NO_TIMINGS, latency_ms: roundMs(waitedMs) }, {
    status: null, outcome: 'interrupted',
    error: { code: 'E_INTERRUPTED', message: `still in flight after ${Math.round(waitedMs / 100) / 10}s ${when}: cut by the harness; the service may have charged it` },
    chunks: 0, chars: 0, text: '', credits_used: null, credits_remaining: null, credits_unknown: false,
  });
}

/**
 * An answer taken from an earlier run (--reuse-answers): this run sent nothing, so it has no timings
 * and spent no credits; what the answer took and cost when it was asked is kept apart
 * (`reused_ttfc_ms`, `reused_latency_ms`, `credits_saved`), out of this run's timing statistics.
 */
export function reusedSample(spec: PlanRequest, ctx: Pick<SampleContext, 'startedAt' | 'offsetMs'>, stored: Sample, runId: string): Sample {
  const sample = sampleOf(spec, {
    endpoint: stored.endpoint, method: stored.method, streaming: stored.streaming, conversationId: stored.conversation_id, attempts: 0, ...ctx,
  }, NO_TIMINGS, {
    status: stored.status, outcome: 'ok', error: null, chunks: stored.chunks, chars: stored.chars, text: stored.text,
    ...NOTHING_SPENT,
  }, stored.stream_dialect);
  sample.reused_from = runId;
  sample.credits_saved = savedCredits(stored);
  sample.reused_ttfc_ms = stored.ttfc_ms;
  sample.reused_latency_ms = stored.latency_ms;
  return sample;
}
