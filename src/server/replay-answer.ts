// Ask and continue under `serve --from-run`: the recorded answer, its credits and stream dialect, with
// timings drawn from the recording; a question it never recorded is a 404 the run reports as such.
import { locate, type AnswerJob } from './answer-handler.js';
import { sleep } from './clock.js';
import { json, notFound, paymentRequired } from './http-responses.js';
import { creditsToUnits, unitsToCredits } from './model-profiles.js';
import type { RecordedAnswer, Replay } from './replay.js';
import { deltasOf } from './replay.js';
import type { ServiceContext, ServiceResponse } from './service-types.js';
import { streamAnswer } from './stream-body.js';
import { createEncoder } from './stream-dialects.js';

const excerpt = (text: string): string => (text.length > 120 ? `${text.slice(0, 120)}…` : text);

function timing(ctx: ServiceContext, replay: Replay, recorded: RecordedAnswer): { deltas: string[]; ttfcMs: number; gapsMs: number[] } {
  const scale = ctx.options.latencyScale;
  const deltas = deltasOf(recorded.text, recorded.chunks);
  return {
    deltas,
    ttfcMs: replay.firstChunkDelayMs(recorded.model) * scale,
    gapsMs: deltas.slice(1).map(() => replay.chunkGapMs(recorded.model) * scale),
  };
}

export async function handleReplay(ctx: ServiceContext, replay: Replay, job: AnswerJob): Promise<ServiceResponse> {
  const located = locate(ctx, job);
  if ('status' in located) return located;
  const { params } = job;
  const recorded = replay.answerTo(params.model, params.prompt);
  if (recorded === undefined) {
    return notFound(`No recorded answer: run ${replay.recording.runId} never asked ${params.model} "${excerpt(params.prompt)}" (serve --from-run answers only the questions it recorded).`);
  }
  const units = recorded.creditsUsed === null ? 0 : creditsToUnits(recorded.creditsUsed);
  const debit = ctx.accounts.debit(job.account.id, units);
  if (!debit.ok) return paymentRequired(`Not enough credits: this answer costs ${unitsToCredits(units)} credits and ${unitsToCredits(debit.remainingUnits)} remain.`);
  if (located.conversation && params.saveHistory) {
    ctx.conversations.saveTurn(located.conversation, { prompt: params.prompt, answer: recorded.text, quoted: [], focus: [], model: params.model, user: params.user, source: params.source });
  }
  const creditsUsed = unitsToCredits(units);
  const creditsRemaining = unitsToCredits(debit.remainingUnits);
  const { deltas, ttfcMs, gapsMs } = timing(ctx, replay, recorded);
  if (!params.streaming) {
    await sleep(job.faults.stallMs + ttfcMs + gapsMs.reduce((sum, gap) => sum + gap, 0), job.signal);
    const response = json(200, { text: recorded.text, credits_used: creditsUsed, credits_remaining: creditsRemaining });
    return job.faults.cut ? { ...response, cutAfterBytes: Math.floor((response.body?.length ?? 0) / 2) } : response;
  }
  // The recorded dialect, unless the request's test header forced one.
  const encoder = createEncoder(job.stream.forcedDialect ?? recorded.dialect ?? job.stream.dialect, job.stream.crlf);
  const stream = streamAnswer({
    encoder, deltas, ttfcMs, gapsMs,
    stallMs: job.faults.stallMs,
    cutAfterDeltas: job.faults.cut ? Math.max(1, Math.floor(deltas.length / 2)) : undefined,
    // A recording whose stream carried no usage chunk replays none: its credits stay unknown.
    usageCredits: params.includeUsage && recorded.creditsUsed !== null ? creditsUsed : undefined,
    usageRemaining: params.includeUsage && recorded.creditsUsed !== null && ctx.options.usageRemaining ? creditsRemaining : undefined,
    pingIntervalMs: ctx.options.pingIntervalMs,
    splitRandom: job.stream.splitWrites ? ctx.random.split : undefined,
    ...(ctx.pause.enabled ? { hold: (signal?: AbortSignal) => ctx.pause.wait(signal) } : {}),
    signal: job.signal,
  });
  return { status: 200, headers: { 'content-type': encoder.contentType, ...encoder.extraHeaders }, stream };
}
