// Runs one thread: creates its conversation (unless resuming one), then sends its turns in order.
import { AbortedError, KbError } from '../domain/errors.js';
import type { Sample } from '../domain/sample.js';
import { isoNow, systemClock } from './clock.js';
import { createIdOf } from '../plan/item-id.js';
import { createRandom } from '../domain/random.js';
import type { PlanRequest, PlanThread } from '../plan/types.js';
import { interruptedSample, sampleFromError, skippedSample, type SampleContext } from './sample-builder.js';
import { attemptsOf, RequestCancelled, sendRequest, type SendDeps } from './send.js';

export interface ThreadHooks {
  /** True once no new request may start (a conversation is not created after a stop either). */
  stopped(): boolean;
  /** Asks the budget and stop state before a turn starts; false = start no more turns. */
  beforeTurn(spec: PlanRequest): Promise<(() => void) | null> | (() => void) | null;
  emit(sample: Sample): void;
}

type Created = { conversationId: string } | { failure: Sample };

/** Creates the thread's conversation (retried by the client's layer, as every call). */
async function createConversation(thread: PlanThread, deps: SendDeps): Promise<Created> {
  const startedAt = isoNow();
  const offsetMs = (deps.clock ?? systemClock).now() - deps.runStartMs;
  try {
    const conversation = await deps.client.createConversation({
      boardId: deps.target.boardId,
      chatId: deps.target.chatId,
      ...(thread.name !== undefined ? { name: thread.name } : {}),
      signal: deps.abort,
      timeoutMs: deps.timeoutMs,
    });
    return { conversationId: conversation.conversationId };
  } catch (error) {
    const attempts = attemptsOf(error);
    if (deps.abort.aborted || error instanceof AbortedError) {
      if (deps.cut?.aborted !== true || deps.hardAbort?.aborted === true) throw new RequestCancelled('cancelled');
      // Cut at the end of the graceful stop while the conversation was being created: recorded, so the start is not lost.
      const spec: PlanRequest = { ...thread.turns[0]!, id: createIdOf(thread.key), turn: null, prompt: '', checks: [] };
      const ctx: SampleContext = { endpoint: 'create', method: 'post', streaming: false, conversationId: null, attempts, startedAt, offsetMs };
      return { failure: interruptedSample(spec, ctx, (deps.clock ?? systemClock).now() - deps.runStartMs - offsetMs, deps.gracefulStopMs ?? null, deps.signalCut?.aborted === true) };
    }
    if (!(error instanceof KbError)) throw error;
    // A conversation that could not be created is recorded once, as a `create` line with its error.
    // No message is sent to create a conversation: the line carries no prompt.
    const spec: PlanRequest = { ...thread.turns[0]!, id: createIdOf(thread.key), turn: null, prompt: '', checks: [] };
    const ctx: SampleContext = { endpoint: 'create', method: 'post', streaming: false, conversationId: null, attempts, startedAt, offsetMs };
    return { failure: sampleFromError(spec, ctx, error) };
  }
}

function skipRest(turns: PlanRequest[], conversationId: string | null, reason: string, hooks: ThreadHooks, deps: SendDeps): void {
  for (const turn of turns) {
    const ctx: SampleContext = {
      endpoint: 'continue', method: turn.options.method ?? 'post', streaming: turn.options.streaming ?? true,
      conversationId, attempts: 0, startedAt: isoNow(), offsetMs: (deps.clock ?? systemClock).now() - deps.runStartMs,
    };
    hooks.emit(skippedSample(turn, ctx, reason));
  }
}

/** Rebuilds a conversation's history from turns already recorded; false when the thread cannot go on. */
async function replayTurns(thread: PlanThread, conversationId: string, deps: SendDeps, hooks: ThreadHooks): Promise<boolean> {
  for (const turn of thread.replay ?? []) {
    const release = await hooks.beforeTurn(turn);
    if (!release) return false;
    let sample: Sample;
    try {
      sample = await sendRequest({ ...turn, checks: [] }, deps, conversationId);
    } finally {
      release();
    }
    if (sample.outcome !== 'ok') {
      skipRest(thread.turns, conversationId, `the conversation could not be rebuilt: replaying turn ${turn.turn} failed (${sample.error?.code ?? sample.outcome})`, hooks, deps);
      return false;
    }
  }
  return true;
}

/** Draws of a thread's think time, seeded by its place in the plan so a run repeats them. */
function thinkTimes(thread: PlanThread): (() => number) | null {
  const range = thread.think_time;
  if (range === undefined || range.max_ms <= 0) return null;
  const random = createRandom(thread.index + 1);
  return () => range.min_ms + random() * (range.max_ms - range.min_ms);
}

/** Resolves when the thread is done or stopped; a request failure ends the thread, skipping the rest. */
export async function runThread(thread: PlanThread, deps: SendDeps, hooks: ThreadHooks): Promise<void> {
  if (thread.turns.length === 0) return;
  let conversationId = thread.conversation_id ?? null;
  if (hooks.stopped()) return;
  const refused = deps.refusedModels?.reasonFor(thread.model);
  if (refused !== undefined) {
    // No conversation is created for a model the service refused: every turn would fail.
    skipRest(thread.turns, conversationId, refused, hooks, deps);
    return;
  }
  if (conversationId === null) {
    const created = await createConversation(thread, deps);
    if ('failure' in created) {
      hooks.emit(created.failure);
      skipRest(thread.turns, null, `conversation could not be created (${created.failure.error?.code})`, hooks, deps);
      return;
    }
    conversationId = created.conversationId;
  }
  if (thread.replay?.length && !(await replayTurns(thread, conversationId, deps, hooks))) return;
  const think = thinkTimes(thread);
  for (let i = 0; i < thread.turns.length; i += 1) {
    const turn = thread.turns[i]!;
    // k6's sleep between a user's steps; a hard stop cuts it short, a soft one is seen by beforeTurn.
    if (i > 0 && think !== null && !(await (deps.clock ?? systemClock).sleep(think(), deps.abort))) return;
    const release = await hooks.beforeTurn(turn);
    if (!release) return; // stopped: the remaining turns stay unsent, so --resume continues them
    let sample: Sample;
    try {
      sample = await sendRequest(turn, deps, conversationId);
    } finally {
      release();
    }
    hooks.emit(sample);
    // Cut at the graceful stop: the rest stays unsent (not skipped), as after any stop.
    if (sample.outcome === 'interrupted') return;
    if (sample.outcome !== 'ok') {
      skipRest(thread.turns.slice(i + 1), conversationId, `turn ${turn.turn} failed (${sample.error?.code ?? sample.outcome})`, hooks, deps);
      return;
    }
  }
}
