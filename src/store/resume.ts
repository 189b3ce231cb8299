// --resume: which items of a run are finished, and where each half-done thread stands.
import type { Sample } from '../domain/sample.js';
import type { RunUnit } from '../runner/request-spec.js';

export interface ResumeState {
  done: Set<string>;
  /** thread_key → conversation id of its last finished turn. */
  conversations: Map<string, string>;
}

export function resumeStateFrom(samples: Sample[]): ResumeState {
  const done = new Set<string>();
  const conversations = new Map<string, string>();
  for (const s of samples) {
    done.add(s.item_id);
    if (s.endpoint === 'continue' && s.conversation_id && s.outcome === 'ok') {
      const key = s.item_id.replace(/\|turn:\d+/, '');
      conversations.set(key, s.conversation_id);
    }
  }
  return { done, conversations };
}

/**
 * Drops finished items. A thread keeps only its unfinished turns and continues in the
 * conversation its finished turns used, so no turn is sent (or paid for) twice.
 */
export function remainingUnits(units: RunUnit[], state: ResumeState, conversationsSurvive = true): RunUnit[] {
  const remaining: RunUnit[] = [];
  for (const unit of units) {
    if (unit.kind === 'case') {
      if (!state.done.has(unit.request.item_id)) remaining.push(unit);
      continue;
    }
    const { thread } = unit;
    if (state.done.has(`${thread.thread_key}|create`)) continue; // its creation failed and was recorded
    const turns = thread.turns.filter((t) => !state.done.has(t.item_id));
    if (turns.length === 0) continue;
    const conversationId = state.conversations.get(thread.thread_key);
    const finished = thread.turns.filter((t) => state.done.has(t.item_id));
    if (finished.length === 0) {
      remaining.push(unit);
    } else if (conversationsSurvive && conversationId) {
      remaining.push({ kind: 'thread', thread: { ...thread, turns, conversation_id: conversationId } });
    } else {
      // The conversation is gone (or never known): rebuild it from the finished turns, unrecorded.
      remaining.push({ kind: 'thread', thread: { ...thread, turns, replay: finished } });
    }
  }
  return remaining;
}
