// --reuse-answers: the stored answers of earlier runs that answer this plan's requests, read as a stream into an index the plan bounds.
import type { Sample } from '../domain/sample.js';
import type { AnswerReuse, StoredAnswer } from '../domain/answer-reuse.js';
import { threadKeyOf, parseItemId, formatItemId } from '../plan/item-id.js';
import type { Plan } from '../plan/types.js';
import { answerKey, answerKeyOfLine, answerSourceOfRun, type AnswerSource } from './answer-key.js';
import { readResults } from './results-reader.js';
import { readRunInfo } from './run-dir.js';

/** What each source run gave (for the console and run.json). */
export interface ReuseSourceCount {
  dir: string;
  run_id: string;
  /** Its stored answers that answer a request of this plan (each taken at most once). */
  matching: number;
}

export interface AnswerIndex extends AnswerReuse {
  sources: ReuseSourceCount[];
}

/** How many times the plan asks each answer key: a repeat takes a different stored answer, never one twice. */
function wantedKeys(plan: Plan, source: AnswerSource): Map<string, number> {
  const wanted = new Map<string, number>();
  for (const unit of plan.units()) {
    const requests = unit.kind === 'case' ? [unit.request] : unit.turns;
    for (const request of requests) {
      const key = request.question_key === undefined ? null : answerKey(source, request.question_key);
      if (key !== null) wanted.set(key, (wanted.get(key) ?? 0) + 1);
    }
  }
  return wanted;
}

/** A stored line, lightened: its checks are judged again, so neither they nor their replies are kept. */
const stored = (run_id: string, line: Sample): StoredAnswer => {
  const { checks: _checks, pass: _pass, not_judged: _nj, score: _score, ...rest } = line;
  return { run_id, line: { ...rest, checks: [], pass: false } };
};

/** One recorded conversation (a thread on a model, one repeat) of one source run: its answered turns by key. */
type Conversation = Map<string, StoredAnswer>;

/**
 * Reads each source run's results once, keeping only answers (outcome ok) whose key this plan asks:
 * memory follows the plan, not the stored runs. Cases are queued by key; a thread's turns are kept by
 * recorded conversation, so a thread takes all its turns from one conversation or none.
 */
export async function readAnswerIndex(dirs: readonly string[], plan: Plan, current: AnswerSource): Promise<AnswerIndex> {
  const wanted = wantedKeys(plan, current);
  const cases = new Map<string, StoredAnswer[]>();
  const conversations = new Map<string, Conversation>();
  const sources: ReuseSourceCount[] = [];
  for (const [at, dir] of dirs.entries()) {
    const run = readRunInfo(dir);
    const source = answerSourceOfRun(run);
    let matching = 0;
    for await (const line of readResults(dir)) {
      if (line.warmup === true || line.outcome !== 'ok') continue;
      const key = answerKeyOfLine(source, line);
      if (key === null || !wanted.has(key)) continue;
      matching += 1;
      const answer = stored(line.reused_from ?? run.run_id, line);
      if (line.thread_id === null) {
        const queue = cases.get(key) ?? [];
        if (queue.length < wanted.get(key)!) queue.push(answer);
        cases.set(key, queue);
        continue;
      }
      const id = parseItemId(line.item_id);
      const conversation = `${at}\u0000${id ? formatItemId(threadKeyOf(id) ?? id) : line.item_id}`;
      const turns = conversations.get(conversation) ?? new Map<string, StoredAnswer>();
      if (!turns.has(key)) turns.set(key, answer);
      conversations.set(conversation, turns);
    }
    sources.push({ dir, run_id: run.run_id, matching });
  }
  return { sources, ...takers(cases, [...conversations.values()], current) };
}

function takers(cases: Map<string, StoredAnswer[]>, conversations: Conversation[], current: AnswerSource): AnswerReuse {
  const keyOf = (question: string): string | null => answerKey(current, question);
  return {
    takeAnswer(question) {
      const key = keyOf(question);
      return key === null ? null : cases.get(key)?.shift() ?? null;
    },
    takeThread(questions) {
      const keys = questions.map(keyOf);
      if (keys.length === 0 || keys.some((k) => k === null)) return null;
      // The first recorded conversation that answered every turn; it is used once.
      const at = conversations.findIndex((turns) => keys.every((k) => turns.has(k!)));
      if (at < 0) return null;
      const turns = conversations[at]!;
      conversations.splice(at, 1);
      return keys.map((k) => turns.get(k!)!);
    },
  };
}
