import { describe, expect, it } from 'vitest';
import { answerKey, answerKeyOfLine, answerSourceOfRun, lineAnswers, questionKey, type AnswerSource, type QuestionParts } from './answer-key.js';
import { buildPlan } from '../plan/build.js';
import { parseSuite } from '../suite/load.js';

const question: QuestionParts = { request_model: 'kb-fast', prompt: 'How do I reset my password?', options: {} };
const embedded: AnswerSource = { target: { base_url: 'http://127.0.0.1:40001', embedded: true, board_id: 'b1', chat_id: 'c1' }, knowledge: { kind: 'documents', sha256: 'aa' } };

describe('questionKey', () => {
  it('is the same for the same question and changes with each part that changes the answer', () => {
    const key = questionKey(question, null);
    expect(questionKey({ ...question }, null)).toBe(key);
    expect(questionKey({ ...question, prompt: 'How do I reset my password? ' }, null)).not.toBe(key);
    expect(questionKey({ ...question, request_model: 'kb-large' }, null)).not.toBe(key);
    expect(questionKey({ ...question, request_model: null }, null)).not.toBe(key);
    expect(questionKey({ ...question, options: { additional_context: 'plan: pro' } }, null)).not.toBe(key);
    expect(questionKey({ ...question, options: { plaintext: true } }, null)).not.toBe(key);
    // Set to its default is not the same as left out: the service may treat them differently.
    expect(questionKey({ ...question, options: { plaintext: false } }, null)).not.toBe(key);
    expect(questionKey(question, 'earlier')).not.toBe(key);
  });

  it('ignores what does not change the answer text (streaming, method, user)', () => {
    const key = questionKey(question, null);
    const options = { streaming: false, method: 'get', user: 'u1' } as QuestionParts['options'];
    expect(questionKey({ ...question, options }, null)).toBe(key);
  });
});

describe('answerKey', () => {
  const q = questionKey(question, null);
  it('keys the embedded service by its documents, not its port', () => {
    const other = { ...embedded, target: { ...embedded.target, base_url: 'http://127.0.0.1:40002' } };
    expect(answerKey(other, q)).toBe(answerKey(embedded, q));
    expect(answerKey({ ...embedded, knowledge: { kind: 'documents', sha256: 'bb' } }, q)).not.toBe(answerKey(embedded, q));
  });

  it('keys a live service by its URL, board, chat and --kb-version label; none without a label', () => {
    const live: AnswerSource = { target: { base_url: 'https://kb.example/api/', embedded: false, board_id: 'b1', chat_id: 'c1' }, knowledge: { kind: 'label', label: 'docs-2026-11' } };
    expect(answerKey({ ...live, target: { ...live.target, base_url: 'https://kb.example/api' } }, q)).toBe(answerKey(live, q));
    expect(answerKey({ ...live, target: { ...live.target, chat_id: 'c2' } }, q)).not.toBe(answerKey(live, q));
    expect(answerKey({ ...live, knowledge: { kind: 'label', label: 'docs-2026-12' } }, q)).not.toBe(answerKey(live, q));
    expect(answerKey({ ...live, knowledge: null }, q)).toBeNull();
  });

  it('reads who answered from run.json, and a line\'s key from its question key', () => {
    const run = { target: embedded.target, knowledge_base: { sha256: 'aa' }, config: { target: {} } };
    expect(answerSourceOfRun(run)).toEqual(embedded);
    const live = answerSourceOfRun({ target: { ...embedded.target, embedded: false }, config: { target: { kbVersion: 'v7' } } });
    expect(live.knowledge).toEqual({ kind: 'label', label: 'v7' });
    expect(answerSourceOfRun({ target: { ...embedded.target, embedded: false }, config: { target: {} } }).knowledge).toBeNull();
    expect(answerKeyOfLine(embedded, { endpoint: 'ask', question_key: q })).toBe(answerKey(embedded, q));
    expect(answerKeyOfLine(embedded, { endpoint: 'create', question_key: q })).toBeNull();
    expect(answerKeyOfLine(embedded, { endpoint: 'ask' })).toBeNull();
  });
});

describe('lineAnswers', () => {
  const q = questionKey(question, null);
  it('says whether a stored line answers a question, and if not why', () => {
    expect(lineAnswers({ outcome: 'ok', endpoint: 'ask', question_key: q }, q)).toBeNull();
    expect(lineAnswers({ outcome: 'ok', endpoint: 'ask', question_key: q }, questionKey({ ...question, prompt: 'x' }, null))).toBe('question-changed');
    expect(lineAnswers({ outcome: 'timeout', endpoint: 'ask', question_key: q }, q)).toBe('not-answered');
    expect(lineAnswers({ outcome: 'ok', endpoint: 'ask' }, q)).toBe('not-recorded');
  });
});

describe('the plan carries each request\'s question key', () => {
  const threadSuite = (first: string): string => ['name: keys', 'cases:', '  - id: c', '    prompt: How do I reset my password?', 'threads:', '  - id: t', '    turns:', `      - prompt: ${first}`, '      - prompt: And then?', ''].join('\n');
  const units = (text: string) => [...buildPlan(parseSuite(Buffer.from(text), 'keys.yaml')).units()];
  const turnKeys = (text: string): (string | undefined)[] => units(text).flatMap((u) => (u.kind === 'thread' ? u.turns.map((t) => t.question_key) : []));

  it('chains a thread\'s turns: a changed first turn changes every later turn\'s key', () => {
    const a = turnKeys(threadSuite('Hi'));
    const b = turnKeys(threadSuite('Hello'));
    expect(a).toHaveLength(2);
    expect(a[1]).toBeDefined();
    expect(a[0]).not.toBe(b[0]);
    expect(a[1]).not.toBe(b[1]);
    const first = units(threadSuite('Hi'))[0];
    expect(first?.kind === 'case' ? first.request.question_key : null).toBe(questionKey({ request_model: null, prompt: 'How do I reset my password?', options: {} }, null));
  });
});
