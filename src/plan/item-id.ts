// The one owner of item ids: a typed value in the plan and the runner, a string only in results.ndjson.
// The same case, model and repeat gets the same id in every run and resume, so results match across
// runs (`compare`, `--resume`, `merge`). The string grammar is the one results files have always had:
//   case:<case>|model:<model>|r<repeat>[|c<cycle>]
//   thread:<thread>|turn:<n>|model:<model>|r<repeat>[|c<cycle>]
//   thread:<thread>|model:<model>|r<repeat>[|c<cycle>]          (a conversation: the thread key)
//   thread:<thread>|model:<model>|r<repeat>[|c<cycle>]|create   (the line of a conversation that could not be created)
// It is read from the right: a model name never contains `|` (the suite refuses one), so case and
// thread ids may contain anything, `|model:` included, and still parse back to themselves.

interface Placed {
  model: string;
  /** 1-based. */
  repeat: number;
  /** 1-based pass of an open loop through the plan; the first pass has no suffix. */
  cycle: number;
}

export type ItemId =
  | (Placed & { kind: 'case'; case_id: string })
  | (Placed & { kind: 'turn'; thread_id: string; turn: number })
  | (Placed & { kind: 'thread'; thread_id: string })
  | (Placed & { kind: 'create'; thread_id: string });

export type ItemKind = ItemId['kind'];

export const caseId = (case_id: string, model: string, repeat: number, cycle = 1): ItemId => ({ kind: 'case', case_id, model, repeat, cycle });
export const threadKey = (thread_id: string, model: string, repeat: number, cycle = 1): ItemId => ({ kind: 'thread', thread_id, model, repeat, cycle });
export const turnId = (thread_id: string, turn: number, model: string, repeat: number, cycle = 1): ItemId => ({ kind: 'turn', thread_id, turn, model, repeat, cycle });

/** The id of the line recorded when a conversation could not be created. */
export function createIdOf(key: ItemId): ItemId {
  if (key.kind === 'case') throw new TypeError('a case has no conversation to create');
  return { kind: 'create', thread_id: key.thread_id, model: key.model, repeat: key.repeat, cycle: key.cycle };
}

/** The conversation a turn (or create line) belongs to. */
export function threadKeyOf(id: ItemId): ItemId | null {
  return id.kind === 'case' ? null : threadKey(id.thread_id, id.model, id.repeat, id.cycle);
}

/** The same id in another open-loop pass. */
export const withCycle = (id: ItemId, cycle: number): ItemId => ({ ...id, cycle });

const tail = (id: Placed): string => `|model:${id.model}|r${id.repeat}${id.cycle > 1 ? `|c${id.cycle}` : ''}`;

export function formatItemId(id: ItemId): string {
  switch (id.kind) {
    case 'case':
      return `case:${id.case_id}${tail(id)}`;
    case 'turn':
      return `thread:${id.thread_id}|turn:${id.turn}${tail(id)}`;
    case 'thread':
      return `thread:${id.thread_id}${tail(id)}`;
    case 'create':
      return `thread:${id.thread_id}${tail(id)}|create`;
  }
}

const TAIL = /\|model:([^|]*)\|r(\d+)(?:\|c(\d+))?(\|create)?$/;
const TURN = /\|turn:(\d+)$/;

/** The value of an id string; null for a string that is not one (a hand-written or foreign line). */
export function parseItemId(text: string): ItemId | null {
  const end = TAIL.exec(text);
  if (!end) return null;
  const model = end[1]!;
  const repeat = Number(end[2]);
  const cycle = end[3] === undefined ? 1 : Number(end[3]);
  if (repeat < 1 || (end[3] !== undefined && cycle < 2)) return null;
  const head = text.slice(0, end.index);
  const create = end[4] !== undefined;
  if (head.startsWith('case:')) return create ? null : caseId(head.slice(5), model, repeat, cycle);
  if (!head.startsWith('thread:')) return null;
  const thread = head.slice(7);
  if (create) return { kind: 'create', thread_id: thread, model, repeat, cycle };
  const turn = TURN.exec(thread);
  if (turn && Number(turn[1]) >= 1) return turnId(thread.slice(0, turn.index), Number(turn[1]), model, repeat, cycle);
  return threadKey(thread, model, repeat, cycle);
}

/**
 * What `compare` pools: one question (or turn) on one model, whatever the repeat or open-loop pass.
 * `case:x|model:m|r2|c3` → `case:x|model:m`; a create line keeps its `|create`. A string that is not
 * an id pools only with itself.
 */
export function poolKeyOf(text: string): string {
  const id = parseItemId(text);
  if (!id) return text;
  const pooled = formatItemId({ ...id, repeat: 1, cycle: 1 });
  return pooled.replace(/\|r1(\|create)?$/, '$1');
}
