// Ask (4.1, 4.2) and continue (4.3, 4.4): a slot of the model, answer, price and debit, then reply as JSON or as a timed stream.
import type { StreamDialect } from '../protocol/index.js';
import { answerQuestion, type EngineAnswer } from './answer-engine.js';
import { sleep } from './clock.js';
import type { StoredConversation } from './conversations.js';
import type { FaultPlan } from './faults.js';
import type { Admitted } from './capacity.js';
import { json, notFound, paymentRequired, rateLimited, serverError, serviceUnavailable } from './http-responses.js';
import { findChat } from './lookup.js';
import { drawChunkGapMs, drawTtfcMs, priceUnits, unitsToCredits, type ModelProfile } from './model-profiles.js';
import type { AnswerParams } from './params.js';
import { releasing } from './releasing.js';
import type { KnowledgeIndex } from './retrieval.js';
import type { ServiceContext, ServiceResponse } from './service-types.js';
import { chunkAnswer, streamAnswer } from './stream-body.js';
import { createEncoder } from './stream-dialects.js';
import type { WorkspaceAccount, WorkspaceChat } from './workspace.js';

/** Per-request stream settings (service options, overridden by the test headers). */
export interface StreamSettings {
  dialect: StreamDialect;
  /** The dialect a request's test header forced (a replay otherwise answers in the recorded one). */
  forcedDialect?: StreamDialect;
  splitWrites: boolean;
  crlf: boolean;
}

export interface AnswerJob {
  account: WorkspaceAccount;
  params: AnswerParams;
  /** Set for continue; undefined for a one-time question. */
  conversationId?: string;
  faults: FaultPlan;
  stream: StreamSettings;
  signal?: AbortSignal;
}

interface Settled {
  answer: EngineAnswer;
  profile: ModelProfile;
  creditsUsed: number;
  creditsRemaining: number;
}

/** Where an answer comes from: the chat, its index, the model's profile and the thread if continuing. */
interface Located {
  chat: WorkspaceChat;
  index: KnowledgeIndex;
  profile: ModelProfile;
  conversation?: StoredConversation;
}

function findConversation(ctx: ServiceContext, job: AnswerJob): StoredConversation | ServiceResponse | undefined {
  if (job.conversationId === undefined) return undefined;
  const conversation = ctx.conversations.get(job.conversationId);
  const matches =
    conversation?.accountId === job.account.id &&
    conversation.boardId === job.params.boardId &&
    conversation.chatId === job.params.chatId;
  return matches ? conversation : notFound(`Conversation ${job.conversationId} not found for chat ${job.params.chatId}.`);
}

/** Unknown chats and threads are answered before the request takes a place in the model's queue. */
export function locate(ctx: ServiceContext, job: AnswerJob): Located | ServiceResponse {
  const found = findChat(ctx, job.account, job.params.boardId, job.params.chatId);
  if (!found.ok) return found.response;
  const conversation = findConversation(ctx, job);
  if (conversation !== undefined && !('turns' in conversation)) return conversation;
  const profile = ctx.profiles.get(job.params.model);
  const index = ctx.indexes.get(found.value.chat.id);
  if (!profile || !index) throw new Error(`no profile or index for ${job.params.model} / ${found.value.chat.id}`);
  return { chat: found.value.chat, index, profile, ...(conversation ? { conversation } : {}) };
}

/** A generation slot of the model, after waiting in its queue if need be; 429 or 503 when the queue is full. */
async function admit(ctx: ServiceContext, job: AnswerJob): Promise<Admitted | ServiceResponse> {
  const { model } = job.params;
  const admission = await ctx.capacity.acquire(model, job.signal);
  if (admission.ok) return admission;
  const load = ctx.capacity.load(model);
  const reason = `${model} is at capacity (${load.active} answering, ${load.queued} waiting).`;
  const retryAfterS = ctx.options.retryAfterS;
  return ctx.options.overloadStatus === 503 ? serviceUnavailable(retryAfterS, reason) : rateLimited(retryAfterS, reason);
}

/** Answers, prices and debits; the exchange is saved to the thread only once it is paid for. */
/** --judge-fault-rate: a judge chat's answer fails or babbles (half each); drawn only when the rate is set. */
function drawJudgeFault(ctx: ServiceContext, chat: WorkspaceChat): 'fail' | 'babble' | null {
  const rate = ctx.options.judgeFaultRate;
  if (chat.kind !== 'judge' || rate <= 0) return null;
  const [hit, kind] = [ctx.random.faults(), ctx.random.faults()];
  if (hit >= rate) return null;
  return kind < 0.5 ? 'fail' : 'babble';
}

function settle(ctx: ServiceContext, job: AnswerJob, located: Located, degraded: boolean, babble = false): Settled | ServiceResponse {
  const { params } = job;
  const { chat, index, profile, conversation } = located;
  const answer = answerQuestion({
    chat,
    index,
    model: params.model,
    profile,
    prompt: params.prompt,
    additionalContext: params.additionalContext,
    history: conversation?.turns ?? [],
    plaintext: params.plaintext || chat.kind === 'judge',
    seed: ctx.options.seed,
    degraded,
    babble,
  });
  const units = priceUnits(profile, answer.inputChars, answer.text.length);
  const debit = ctx.accounts.debit(job.account.id, units);
  if (!debit.ok) {
    const balance = unitsToCredits(debit.remainingUnits);
    return paymentRequired(`Not enough credits: this answer costs ${unitsToCredits(units)} credits and ${balance} remain.`);
  }
  if (conversation && params.saveHistory) {
    const { prompt, model, user, source } = params;
    ctx.conversations.saveTurn(conversation, { prompt, answer: answer.text, quoted: answer.quoted, focus: answer.focus, model, user, source });
  }
  return { answer, profile, creditsUsed: unitsToCredits(units), creditsRemaining: unitsToCredits(debit.remainingUnits) };
}

function timing(ctx: ServiceContext, settled: Settled): { deltas: string[]; ttfcMs: number; gapsMs: number[] } {
  const { profile } = settled;
  const scale = ctx.options.latencyScale;
  const random = ctx.random.latency;
  const ttfcMs = drawTtfcMs(profile, random) * scale;
  const deltas = chunkAnswer(settled.answer.text, profile.wordsPerChunkMin, profile.wordsPerChunkMax, random);
  const gapsMs = deltas.slice(1).map(() => drawChunkGapMs(profile, random) * scale);
  return { deltas, ttfcMs, gapsMs };
}

function streamed(ctx: ServiceContext, job: AnswerJob, settled: Settled): ServiceResponse & { stream: AsyncIterable<Uint8Array> } {
  const { deltas, ttfcMs, gapsMs } = timing(ctx, settled);
  const encoder = createEncoder(job.stream.dialect, job.stream.crlf);
  const stream = streamAnswer({
    encoder,
    deltas,
    ttfcMs,
    gapsMs,
    stallMs: job.faults.stallMs,
    cutAfterDeltas: job.faults.cut ? Math.max(1, Math.floor(deltas.length / 2)) : undefined,
    usageCredits: job.params.includeUsage ? settled.creditsUsed : undefined,
    usageRemaining: job.params.includeUsage && ctx.options.usageRemaining ? settled.creditsRemaining : undefined,
    pingIntervalMs: ctx.options.pingIntervalMs,
    splitRandom: job.stream.splitWrites ? ctx.random.split : undefined,
    ...(ctx.pause.enabled ? { hold: (signal?: AbortSignal) => ctx.pause.wait(signal) } : {}),
    signal: job.signal,
  });
  return { status: 200, headers: { 'content-type': encoder.contentType, ...encoder.extraHeaders }, stream };
}

/**
 * Handles ask and continue once the key is known to be good and faults have been decided. The
 * answer holds a slot of its model from admission until its last byte (a stream's end), so time to
 * first chunk grows with the queue in front of it.
 */
export async function handleAnswer(ctx: ServiceContext, job: AnswerJob): Promise<ServiceResponse> {
  const located = locate(ctx, job);
  if ('status' in located) return located;
  const judgeFault = drawJudgeFault(ctx, located.chat);
  if (judgeFault === 'fail') return serverError('Injected judge fault: the grader failed to answer.');
  const slot = await admit(ctx, job);
  if ('status' in slot) return slot;
  let handedOver = false;
  try {
    const settled = settle(ctx, job, located, ctx.options.degradeQuality && slot.queued, judgeFault === 'babble');
    if ('status' in settled) return settled;
    if (job.params.streaming) {
      const response = streamed(ctx, job, settled);
      handedOver = true;
      return { ...response, stream: releasing(response.stream, slot.release) };
    }
    const { ttfcMs, gapsMs } = timing(ctx, settled);
    // A JSON answer arrives only once the whole answer has been "generated".
    await sleep(job.faults.stallMs + ttfcMs + gapsMs.reduce((sum, gap) => sum + gap, 0), job.signal);
    const response = json(200, { text: settled.answer.text, credits_used: settled.creditsUsed, credits_remaining: settled.creditsRemaining });
    return job.faults.cut ? { ...response, cutAfterBytes: Math.floor((response.body?.length ?? 0) / 2) } : response;
  } finally {
    if (!handedOver) slot.release();
  }
}
