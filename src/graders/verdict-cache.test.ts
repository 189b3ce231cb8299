// The grader-verdict cache on disk: round trip, no cost or key kept, torn entries as misses, LRU eviction.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../domain/sample.js';
import type { Grader } from './types.js';
import { graderIdentity, openVerdictCache, verdictMemo } from './verdict-cache.js';

const dirOf = (): string => mkdtempSync(join(tmpdir(), 'kbbench-verdicts-'));

const VERDICT: CheckResult = {
  type: 'judge', pass: true, detail: 'grader says PASS: ok', score: 1, grader: 'openai http://127.0.0.1:9/v1 g', credits_used: 0.002, grader_tokens: 42, grader_replies: ['{"pass": true}'],
};

function entries(dir: string): string[] {
  return readdirSync(join(dir, 'verdicts'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('openVerdictCache', () => {
  it('keeps the verdict and its evidence under a hash of what decides it, never what it cost', async () => {
    const dir = dirOf();
    const cache = openVerdictCache(dir);
    expect(await cache.get('m1')).toBeUndefined();
    await cache.put('m1', VERDICT);
    const { credits_used: _c, grader_tokens: _t, ...verdict } = VERDICT;
    expect(await cache.get('m1')).toEqual(verdict);
    expect(await cache.get('m2')).toBeUndefined();
    const [file] = entries(dir);
    expect(file).toMatch(/verdicts\/[0-9a-f]{2}\/[0-9a-f]{64}\.json$/);
    expect(readFileSync(file!, 'utf8')).not.toContain('m1');
  });

  it('a torn, corrupt or foreign entry is a miss, never an error', async () => {
    const dir = dirOf();
    const cache = openVerdictCache(dir);
    await cache.put('torn', VERDICT);
    await cache.put('moved', VERDICT);
    const [a, b] = entries(dir);
    const text = readFileSync(a!, 'utf8');
    writeFileSync(a!, text.slice(0, text.length / 2));
    // An entry under another key's name (a copy, a hash collision) does not answer for it.
    writeFileSync(b!, JSON.stringify({ format: 1, key: 'other', verdict: VERDICT }));
    expect(await cache.get('torn')).toBeUndefined();
    expect(await cache.get('moved')).toBeUndefined();
    // A directory that cannot be written is a cache that keeps nothing.
    const blocked = join(dirOf(), 'file');
    writeFileSync(blocked, '');
    const none = openVerdictCache(blocked);
    await none.put('x', VERDICT);
    expect(await none.get('x')).toBeUndefined();
  });

  it('is bounded: past its size cap the least recently used entries go (a hit counts as a use)', async () => {
    const dir = dirOf();
    const cache = openVerdictCache(dir);
    await cache.put('probe', VERDICT);
    const size = readFileSync(entries(dir)[0]!).length;
    const bounded = openVerdictCache(dir, { maxBytes: size * 4.5 });
    for (let i = 0; i < 4; i++) await bounded.put(`m${i}`, VERDICT);
    await bounded.put('probe', VERDICT);
    // Ages: probe and m0 oldest … m3 newest; then m0 is read, so probe and m1 are the least recently used.
    for (const [i, m] of ['probe', 'm0', 'm1', 'm2', 'm3'].entries()) utimesSync(entryOf(dir, m), 1000 + i, 1000 + i);
    expect(await bounded.get('m0')).toBeDefined();
    await bounded.put('m4', VERDICT);
    expect(await bounded.sweep()).toBeLessThanOrEqual(size * 4.5 * 0.8);
    const kept: string[] = [];
    for (const m of ['probe', 'm0', 'm1', 'm2', 'm3', 'm4']) if ((await bounded.get(m)) !== undefined) kept.push(m);
    expect(kept).toEqual(['m0', 'm3', 'm4']);
  });
});

const hashOf = (material: string): string => createHash('sha256').update(`1\u0000${material}`).digest('hex');
const entryOf = (dir: string, material: string): string => join(dir, 'verdicts', hashOf(material).slice(0, 2), `${hashOf(material)}.json`);

describe('verdictMemo', () => {
  const grader = (kind: Grader['kind'], label: string): Grader => ({ kind, label, model: null, withModel: () => grader(kind, label), ask: async () => ({ text: '', credits_used: null, tokens: null }), preflight: async () => undefined });

  it('tells graders apart by endpoint and model, a grader chat by service, board, chat and model; never by a key', async () => {
    const service = { baseUrl: 'http://127.0.0.1:1234', boardId: 'b1' };
    expect(graderIdentity(grader('openai', 'openai http://h/v1 m'), service, { prompt: 'P' })).toBe('openai http://h/v1 m');
    expect(graderIdentity(grader('chat', 'chat c (m)'), service, { prompt: 'P', board_id: 'b2' })).toBe('http://127.0.0.1:1234 board b2 chat c (m)');
    const cache = openVerdictCache(dirOf());
    let identity: string | undefined = 'openai http://h/v1 m';
    const memo = verdictMemo(cache, () => identity);
    await memo.keep({ type: 'judge', request: { prompt: 'P' }, votes: 1 }, VERDICT);
    expect(await memo.recall({ type: 'judge', request: { prompt: 'P' }, votes: 1 })).toMatchObject({ pass: true });
    expect(await memo.recall({ type: 'factuality', request: { prompt: 'P' }, votes: 1 })).toBeUndefined();
    identity = 'openai http://h/v1 other';
    expect(await memo.recall({ type: 'judge', request: { prompt: 'P' }, votes: 1 })).toBeUndefined();
    identity = undefined;
    expect(await memo.recall({ type: 'judge', request: { prompt: 'P' }, votes: 1 })).toBeUndefined();
  });
});
