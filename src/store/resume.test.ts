import { describe, expect, it } from 'vitest';
import type { Sample } from '../domain/sample.js';
import type { RequestSpec, RunUnit } from '../runner/request-spec.js';
import { remainingUnits, resumeStateFrom } from './resume.js';

const req = (item_id: string, turn: number | null = null): RequestSpec => ({
  item_id, case_id: null, thread_id: 't', turn, model: 'm', request_model: 'm', repeat: 1, prompt: 'p', options: {}, checks: [],
});
const line = (item_id: string, extra: Partial<Sample> = {}) =>
  ({ item_id, endpoint: 'ask', outcome: 'ok', conversation_id: null, ...extra }) as Sample;

describe('resume', () => {
  const key = 'thread:t|model:m|r1';
  const units: RunUnit[] = [
    { kind: 'case', request: req('case:a|model:m|r1') },
    { kind: 'case', request: req('case:b|model:m|r1') },
    { kind: 'thread', thread: { thread_key: key, thread_id: 't', model: 'm', repeat: 1, turns: [1, 2, 3].map((n) => req(`thread:t|turn:${n}|model:m|r1`, n)) } },
  ];

  it('drops finished cases and continues a half-done thread in its own conversation', () => {
    const state = resumeStateFrom([
      line('case:a|model:m|r1'),
      line('thread:t|turn:1|model:m|r1', { endpoint: 'continue', conversation_id: 'conv-1' }),
    ]);
    const rest = remainingUnits(units, state);
    expect(rest).toHaveLength(2);
    expect(rest[0]).toMatchObject({ kind: 'case', request: { item_id: 'case:b|model:m|r1' } });
    const t = rest[1]!;
    expect(t.kind === 'thread' && t.thread.conversation_id).toBe('conv-1');
    expect(t.kind === 'thread' && t.thread.turns.map((x) => x.turn)).toEqual([2, 3]);
  });

  it('rebuilds a half-done thread by replaying its finished turns when its conversation is gone', () => {
    const state = resumeStateFrom([line('thread:t|turn:1|model:m|r1', { endpoint: 'continue', conversation_id: 'conv-1' })]);
    const t = remainingUnits(units, state, false)[2]!;
    expect(t.kind === 'thread' && t.thread.conversation_id).toBeUndefined();
    expect(t.kind === 'thread' && t.thread.replay?.map((x) => x.turn)).toEqual([1]);
    expect(t.kind === 'thread' && t.thread.turns.map((x) => x.turn)).toEqual([2, 3]);
  });

  it('sends nothing again when everything finished', () => {
    const all = ['case:a|model:m|r1', 'case:b|model:m|r1', ...[1, 2, 3].map((n) => `thread:t|turn:${n}|model:m|r1`)];
    expect(remainingUnits(units, resumeStateFrom(all.map((id) => line(id))))).toEqual([]);
  });
});

describe('ResultsFile after a torn write', () => {
  it('cuts the partial last line before appending, so the next result stays whole', async () => {
    const { mkdtempSync, writeFileSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const { ResultsFile, readSamplesSync } = await import('./results-file.js');
    const path = join(mkdtempSync(join(tmpdir(), 'kbbench-torn-')), 'results.ndjson');
    writeFileSync(path, '{"item_id":"a"}\n{"item_id":"b","te');
    const file = new ResultsFile(path);
    file.append(line('c'));
    file.close();
    expect(readFileSync(path, 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
    expect(readSamplesSync(path).map((s) => s.item_id)).toEqual(['a', 'c']);
  });
});

describe('ResultsFile redaction', () => {
  it('never writes a secret that an answer echoed', async () => {
    const { mkdtempSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const { ResultsFile } = await import('./results-file.js');
    const path = join(mkdtempSync(join(tmpdir(), 'kbbench-redact-')), 'results.ndjson');
    const file = new ResultsFile(path, (l) => l.split('sk-secret-123').join('[redacted]'));
    file.append({ ...line('a'), text: 'your key is sk-secret-123' });
    file.close();
    expect(readFileSync(path, 'utf8')).not.toContain('sk-secret-123');
    expect(readFileSync(path, 'utf8')).toContain('[redacted]');
  });
});
