// --resume of a replay: which records already have their result line (read once from results.ndjson)
// or were dropped (named in timeline.ndjson), the log's stream without them, and where the resumed
// run's clock starts on the log's (so its seconds and stage windows are the log's own).
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
 * The resume state of results already read, and of the records the run dropped (named in
 * timeline.ndjson). A turn's line, the `create` line of a turn whose conversation could not be
 * made, or a dropped turn each account for one turn: turns of a conversation never overlap (the
 * next waits for the previous answer, and none goes after a dropped one), so its turns done are
 * 1..n. An `interrupted` line counts as done, as for every run (docs/run-directory.md); a dropped
 * record is done too: its outcome is its drop, never sent later (docs/load-testing.md).
 */
export async function trafficResumeOf(samples: AsyncIterable<Sample>, dropped: AsyncIterable<string> | Iterable<string> = []): Promise<TrafficResume> {
  const resume: TrafficResume = { cases: new Set(), conversations: new Map() };
  for await (const sample of samples) countDone(resume, sample.item_id, sample.conversation_id);
  for await (const item of dropped) countDone(resume, item, null);
  return resume;
}

function countDone(resume: TrafficResume, item: string, conversationId: string | null): void {
  const id = parseItemId(item);
  if (id === null) return;
  if (id.kind === 'case') {
    resume.cases.add(keyOf(id.cycle, id.case_id));
    return;
  }
  if (id.kind !== 'turn' && id.kind !== 'create') return;
  const key = keyOf(id.cycle, id.thread_id);
  const entry = resume.conversations.get(key) ?? { turns: 0, conversationId: null };
  entry.turns += 1;
  if (conversationId !== null) entry.conversationId = conversationId;
  resume.conversations.set(key, entry);
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

/** A resumed replay as it goes: what was recorded, once read. */
export interface ResumeProgress {
  done: TrafficResume | null;
}

/**
 * The records not yet recorded (nor dropped), each turn numbered as in the whole log, due at its
 * own instant on the log's clock: the resumed run's clock goes on from resumeClockMs, so its
 * seconds and stages are the log's, as in a replay that ran through.
 */
export async function* pendingRecords(source: AsyncIterable<DueRecord>, read: () => Promise<TrafficResume>, progress: ResumeProgress): AsyncGenerator<NumberedRecord> {
  const done = await read();
  progress.done = done;
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
    yield turn !== undefined ? { ...due, turn } : due;
  }
}

/**
 * Where a resumed replay's clock starts: the whole second (of the log's clock, scaled) at or before
 * its first record not yet done, so the gap before it is not waited (it goes within a second) and
 * the segment's timeline seconds fall on the same seconds, and stage windows, as the first's. 0
 * when nothing is left.
 */
export async function resumeClockMs(pending: AsyncIterable<NumberedRecord>): Promise<number> {
  for await (const first of pending) return Math.floor(first.dueMs / 1000) * 1000;
  return 0;
}
