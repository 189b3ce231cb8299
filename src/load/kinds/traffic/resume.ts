// --resume of a replay: which records already have their result line (read once from results.ndjson),
// and the log's stream without them, re-timed so the first record not yet recorded is due at once.
// Memory ∝ the records done and the conversations seen, never the log: a 10M-record log still streams.
import type { Sample } from '../../../domain/sample.js';
import { parseItemId } from '../../../plan/item-id.js';
import type { DueRecord } from './schedule.js';

/** Where a partly replayed conversation stands: its turns with a line (1..turns), the service's id of its thread. */
export interface ConversationDone {
  turns: number;
  conversationId: string | null;
}

/** What the interrupted run recorded, keyed by pass (an open loop's cycle) and the log's own names. */
export interface TrafficResume {
  /** One-time questions with a line (`line-N` of pass p). */
  cases: Set<string>;
  conversations: Map<string, ConversationDone>;
}

const keyOf = (pass: number, name: string): string => `${pass} ${name}`;

/**
 * The resume state of results already read. A turn's line, or the `create` line of a turn whose
 * conversation could not be made, each account for one turn: turns of a conversation never overlap
 * (the next waits for the previous answer), so its recorded turns are 1..n. An `interrupted` line
 * counts as done, as for every run (docs/run-directory.md).
 */
export async function trafficResumeOf(samples: AsyncIterable<Sample>): Promise<TrafficResume> {
  const resume: TrafficResume = { cases: new Set(), conversations: new Map() };
  for await (const sample of samples) {
    const id = parseItemId(sample.item_id);
    if (id === null) continue;
    if (id.kind === 'case') {
      resume.cases.add(keyOf(id.cycle, id.case_id));
      continue;
    }
    if (id.kind !== 'turn' && id.kind !== 'create') continue;
    const key = keyOf(id.cycle, id.thread_id);
    const entry = resume.conversations.get(key) ?? { turns: 0, conversationId: null };
    entry.turns += 1;
    if (sample.conversation_id !== null) entry.conversationId = sample.conversation_id;
    resume.conversations.set(key, entry);
  }
  return resume;
}

/** The conversation of a due record in the resume's keys (null: a one-time question). */
function conversationOf(due: DueRecord, resume: TrafficResume): ConversationDone | undefined {
  return resume.conversations.get(keyOf(due.pass, due.record.conversation!));
}

/** The service's id of a partly replayed conversation, by the replay's conversation key (`c7`, `c7#2`). */
export function knownConversation(resume: TrafficResume, due: DueRecord): string | null {
  return due.conversationKey === null ? null : (conversationOf(due, resume)?.conversationId ?? null);
}

/** A due record of a resumed replay: its turn numbered in file order, counting the turns already recorded. */
export type NumberedRecord = DueRecord & { turn?: number };

/** A resumed replay as it goes: what was recorded (once read), how far the records were moved earlier (once the first one not recorded is read). */
export interface ResumeProgress {
  done: TrafficResume | null;
  shiftMs: number | null;
}

/**
 * The records not yet recorded, each turn numbered as in the whole log, due at its recorded offset
 * from the first of them (the gap before it is not waited: the run goes on where it stopped).
 */
export async function* pendingRecords(source: AsyncIterable<DueRecord>, read: () => Promise<TrafficResume>, shift: ResumeProgress): AsyncGenerator<NumberedRecord> {
  const done = await read();
  shift.done = done;
  const turns = new Map<string, number>();
  for await (const due of source) {
    let turn: number | undefined;
    if (due.conversationKey === null) {
      if (done.cases.has(keyOf(due.pass, `line-${due.record.line}`))) continue;
    } else {
      turn = (turns.get(due.conversationKey) ?? 0) + 1;
      turns.set(due.conversationKey, turn);
      if (turn <= (conversationOf(due, done)?.turns ?? 0)) continue;
    }
    shift.shiftMs ??= due.dueMs;
    yield { ...due, dueMs: due.dueMs - shift.shiftMs, ...(turn !== undefined ? { turn } : {}) };
  }
}
