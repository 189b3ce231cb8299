import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../plan/build.js';
import { formatItemId, turnId } from '../plan/item-id.js';
import { parseSuite } from '../suite/load.js';
import { sampleWith, writeRun } from '../test-support/fixtures.js';
import type { Sample } from '../domain/sample.js';
import type { PlanRequest, PlanUnit } from '../plan/types.js';
import { readAnswerIndex } from './answer-index.js';
import type { AnswerSource } from './answer-key.js';

const SUITE = ['name: keys', 'models: [m1]', 'cases:', '  - id: c', '    prompt: How do I reset my password?', 'threads:', '  - id: t', '    turns:', '      - prompt: Hi', '      - prompt: And then?', ''].join('\n');
const plan = (repeat = 1) => buildPlan(parseSuite(Buffer.from(SUITE), 'keys.yaml'), { repeat });
const units = (repeat = 1): PlanUnit[] => [...plan(repeat).units()];
const current: AnswerSource = { target: { base_url: 'http://127.0.0.1:1', embedded: true, board_id: 'b', chat_id: 'c' }, knowledge: { kind: 'documents', sha256: 'aa' } };
const runOf = { target: { base_url: 'http://127.0.0.1:2', embedded: true, board_id: 'b', chat_id: 'c' }, knowledge_base: { sha256: 'aa' } };

/** The lines a run answering `requests` would have written (text names the request and the repeat). */
function linesOf(requests: PlanRequest[], repeat = 1, conversation = 'conv-1'): Sample[] {
  return requests.map((r) => sampleWith({
    item_id: formatItemId(r.thread_id ? turnId(r.thread_id, r.turn!, r.model, repeat) : r.id), case_id: r.case_id, thread_id: r.thread_id, turn: r.turn,
    model: r.model, repeat, question_key: r.question_key!, text: `${r.prompt} #${repeat}`, credits_used: 0.5, endpoint: r.thread_id ? 'continue' : 'ask',
    conversation_id: r.thread_id ? conversation : null, outcome: 'ok',
  }));
}
const requestsOf = (us: PlanUnit[]): PlanRequest[] => us.flatMap((u) => (u.kind === 'case' ? [u.request] : u.turns));
const tmp = (): string => mkdtempSync(join(tmpdir(), 'kbbench-index-'));

describe('readAnswerIndex', () => {
  it('hands out a case\'s stored answer once, and a thread whole from one conversation', async () => {
    const dir = writeRun(join(tmp(), 'a'), linesOf(requestsOf(units())), { ...runOf, run_id: 'run-a' });
    const index = await readAnswerIndex([dir], plan(), current);
    expect(index.sources).toEqual([{ dir, run_id: 'run-a', matching: 3 }]);
    const [c, t] = units();
    if (c?.kind !== 'case' || t?.kind !== 'thread') throw new Error('plan shape');
    const taken = index.takeAnswer(c.request.question_key!);
    expect(taken?.run_id).toBe('run-a');
    expect(taken?.line.text).toBe('How do I reset my password? #1');
    expect(index.takeAnswer(c.request.question_key!)).toBeNull();
    expect(index.takeThread(t.turns.map((x) => x.question_key!))?.map((a) => a.line.text)).toEqual(['Hi #1', 'And then? #1']);
    expect(index.takeThread(t.turns.map((x) => x.question_key!))).toBeNull();
  });

  it('takes nothing of a thread with a turn missing or failed, of another knowledge base, or of a failed answer', async () => {
    const [c, t] = units();
    if (c?.kind !== 'case' || t?.kind !== 'thread') throw new Error('plan shape');
    const lines = linesOf([c.request, ...t.turns]);
    lines[0] = { ...lines[0]!, outcome: 'timeout' };
    lines[2] = { ...lines[2]!, outcome: 'http_error' };
    const dir = writeRun(join(tmp(), 'b'), lines, { ...runOf, run_id: 'run-b' });
    const index = await readAnswerIndex([dir], plan(), current);
    expect(index.takeAnswer(c.request.question_key!)).toBeNull();
    expect(index.takeThread(t.turns.map((x) => x.question_key!))).toBeNull();
    const other = writeRun(join(tmp(), 'c'), linesOf(requestsOf(units())), { ...runOf, knowledge_base: { sha256: 'bb' } });
    expect((await readAnswerIndex([other], plan(), current)).sources[0]!.matching).toBe(0);
  });

  it('gives each repeat a different stored answer, from the first source that holds one', async () => {
    const one = writeRun(join(tmp(), 'd'), linesOf(requestsOf(units()), 1), { ...runOf, run_id: 'run-1' });
    const two = writeRun(join(tmp(), 'e'), linesOf(requestsOf(units()), 2, 'conv-2'), { ...runOf, run_id: 'run-2' });
    const index = await readAnswerIndex([one, two], plan(3), current);
    const key = units()[0]!.kind === 'case' ? (units()[0] as { request: PlanRequest }).request.question_key! : '';
    expect([index.takeAnswer(key)?.run_id, index.takeAnswer(key)?.run_id, index.takeAnswer(key)]).toEqual(['run-1', 'run-2', null]);
  });
});
