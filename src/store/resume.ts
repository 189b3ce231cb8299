// --resume: which places of the plan's index space are finished, and where each half-done thread stands.
// Read in one pass of results.ndjson into a bitmap (one bit per place), never a set of id strings.
import { sampleCreditUnits } from '../credits/units.js';
import { IndexBits } from '../plan/build.js';
import { parseItemId, threadKeyOf } from '../plan/item-id.js';
import type { Plan, PlanThread, PlanUnit } from '../plan/types.js';
import { readResults } from './results-reader.js';

interface HalfDone {
  /** Turns with a line (answered, failed or skipped). */
  turns: Set<number>;
  /** The conversation of its last answered turn. */
  conversationId: string | null;
}

export interface ResumeState {
  /** Units with every request recorded. */
  done: IndexBits;
  /** Threads some of whose turns are recorded; bounded by what was in flight when the run stopped. */
  halfDone: Map<number, HalfDone>;
  /** Lines read (finished requests). */
  lines: number;
  /** What the recorded requests spent (answers and their judges), in 1e-5 units. */
  creditUnits: number;
  /** Lines of no place in this plan (another suite's, or edited by hand): kept, never sent again. */
  foreign: number;
  /** Lines of an item that already had one (two processes wrote the run at once); the first is `duplicateExample`. */
  duplicates: number;
  duplicateExample: string | null;
}

export async function readResumeState(runDir: string, plan: Plan): Promise<ResumeState> {
  const state: ResumeState = { done: new IndexBits(plan.space), halfDone: new Map(), lines: 0, creditUnits: 0, foreign: 0, duplicates: 0, duplicateExample: null };
  for await (const sample of readResults(runDir)) {
    state.lines += 1;
    state.creditUnits += sampleCreditUnits(sample);
    const id = parseItemId(sample.item_id);
    const key = id && (id.kind === 'case' ? id : threadKeyOf(id));
    const index = key ? plan.indexOf(key) : null;
    if (id === null || index === null) {
      state.foreign += 1;
      continue;
    }
    // Found from the bitmap and the half-done turns alone (no set of ids): a place already done, or
    // a turn already seen, recorded again.
    const seen = state.done.has(index) || (id.kind === 'turn' && state.halfDone.get(index)?.turns.has(id.turn) === true);
    if (seen) {
      state.duplicates += 1;
      state.duplicateExample ??= sample.item_id;
      continue;
    }
    if (id.kind === 'case' || id.kind === 'create') {
      // A case answered, or a conversation that could not be created (its turns were never sent).
      state.done.set(index);
      state.halfDone.delete(index);
    } else if (id.kind === 'turn') {
      const entry = state.halfDone.get(index) ?? { turns: new Set<number>(), conversationId: null };
      entry.turns.add(id.turn);
      if (sample.endpoint === 'continue' && sample.conversation_id && sample.outcome === 'ok') entry.conversationId = sample.conversation_id;
      const unit = plan.unitAt(index);
      if (unit?.kind === 'thread' && unit.turns.every((t) => entry.turns.has(t.turn!))) {
        state.done.set(index);
        state.halfDone.delete(index);
      } else {
        state.halfDone.set(index, entry);
      }
    }
  }
  return state;
}

/**
 * The plan without what is finished. A thread keeps only its unfinished turns and continues in the
 * conversation its finished turns used, so no turn is sent (or paid for) twice; where that
 * conversation did not survive (a fresh embedded service), the finished turns are replayed unrecorded.
 */
export function remainingUnits(plan: Plan, state: ResumeState, conversationsSurvive = true): { units(): IterableIterator<PlanUnit> } {
  return {
    *units() {
      for (const unit of plan.units()) {
        if (state.done.has(unit.index)) continue;
        const half = unit.kind === 'thread' ? state.halfDone.get(unit.index) : undefined;
        yield half && unit.kind === 'thread' ? continued(unit, half, conversationsSurvive) : unit;
      }
    },
  };
}

function continued(thread: PlanThread, half: HalfDone, conversationsSurvive: boolean): PlanThread {
  const turns = thread.turns.filter((t) => !half.turns.has(t.turn!));
  const finished = thread.turns.filter((t) => half.turns.has(t.turn!));
  if (conversationsSurvive && half.conversationId) return { ...thread, turns, conversation_id: half.conversationId };
  return { ...thread, turns, replay: finished };
}
