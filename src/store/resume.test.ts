import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../domain/sample.js';
import { buildPlan } from '../plan/build.js';
import { formatItemId } from '../plan/item-id.js';
import type { PlanUnit } from '../plan/types.js';
import { parseSuite } from '../suite/load.js';
import { readResumeState, remainingUnits } from './resume.js';
import { ResultsFile } from './results-file.js';
import { readResults } from './results-reader.js';

const suite = parseSuite(
  Buffer.from(['models: [m]', 'cases:', '  - { id: a, prompt: A }', '  - { id: b, prompt: B }', 'threads:', '  - id: t', '    turns: [ { prompt: one }, { prompt: two }, { prompt: three } ]'].join('\n')),
  'resume.yaml',
);
const line = (item_id: string, extra: Partial<Sample> = {}) =>
  JSON.stringify({ item_id, model: 'm', endpoint: 'ask', outcome: 'ok', conversation_id: null, credits_used: 0.25, checks: [], ...extra });
const runDirWith = (lines: string[]): string => {
  const dir = mkdtempSync(join(tmpdir(), 'kbbench-resume-'));
  writeFileSync(join(dir, 'results.ndjson'), lines.map((l) => `${l}\n`).join(''));
  return dir;
};
const ids = (units: Iterable<PlanUnit>) => [...units].map((u) => (u.kind === 'case' ? formatItemId(u.request.id) : `${formatItemId(u.key)} ${u.turns.map((t) => t.turn).join(',')}`));

describe('resume', () => {
  const plan = buildPlan(suite);

  it('drops finished cases and continues a half-done thread in its own conversation', async () => {
    const dir = runDirWith([line('case:a|model:m|r1'), line('thread:t|turn:1|model:m|r1', { endpoint: 'continue', conversation_id: 'conv-1' })]);
    const state = await readResumeState(dir, plan);
    expect(state.lines).toBe(2);
    expect(state.creditUnits).toBe(50_000);
    const rest = [...remainingUnits(plan, state).units()];
    expect(ids(rest)).toEqual(['case:b|model:m|r1', 'thread:t|model:m|r1 2,3']);
    expect(rest[1]!.kind === 'thread' && rest[1]!.conversation_id).toBe('conv-1');
  });

  it('rebuilds a half-done thread by replaying its finished turns when its conversation is gone', async () => {
    const dir = runDirWith([line('thread:t|turn:1|model:m|r1', { endpoint: 'continue', conversation_id: 'conv-1' })]);
    const t = [...remainingUnits(plan, await readResumeState(dir, plan), false).units()][2]!;
    expect(t.kind === 'thread' && t.conversation_id).toBeUndefined();
    expect(t.kind === 'thread' && t.replay?.map((x) => x.turn)).toEqual([1]);
    expect(t.kind === 'thread' && t.turns.map((x) => x.turn)).toEqual([2, 3]);
  });

  it('sends nothing again when everything finished, and nothing of a thread whose conversation failed', async () => {
    const all = ['case:a|model:m|r1', 'case:b|model:m|r1', ...[1, 2, 3].map((n) => `thread:t|turn:${n}|model:m|r1`)];
    expect(ids(remainingUnits(plan, await readResumeState(runDirWith(all.map((id) => line(id))), plan)).units())).toEqual([]);
    const failed = runDirWith([line('thread:t|model:m|r1|create', { outcome: 'http_error' })]);
    expect(ids(remainingUnits(plan, await readResumeState(failed, plan)).units())).toEqual(['case:a|model:m|r1', 'case:b|model:m|r1']);
  });

  it('sends exactly the missing items of a large plan, and counts lines of no place in it as foreign', async () => {
    const big = buildPlan(suite, { repeat: 20_000 }); // 60,000 units, 100,000 requests
    const kept: string[] = [];
    let k = 0;
    for (const unit of big.units()) {
      k += 1;
      if (k % 7 === 0) continue; // every 7th unit never finished
      if (unit.kind === 'case') kept.push(line(formatItemId(unit.request.id)));
      else for (const turn of unit.turns) kept.push(line(formatItemId(turn.id)));
    }
    kept.push(line('case:gone|model:m|r1'));
    const state = await readResumeState(runDirWith(kept), big);
    expect(state.foreign).toBe(1);
    expect(state.halfDone.size).toBe(0);
    const rest = [...remainingUnits(big, state).units()];
    expect(rest).toHaveLength(Math.floor(60_000 / 7));
    expect(rest.every((u) => (u.index + 1) % 7 === 0)).toBe(true);
  });
});

describe('ResultsFile', () => {
  it('cuts the partial last line before appending, so the next result stays whole', async () => {
    const dir = runDirWith([]);
    const path = join(dir, 'results.ndjson');
    writeFileSync(path, `${line('a')}\n${line('b').slice(0, 20)}`);
    const file = new ResultsFile(path);
    file.append(JSON.parse(line('c')) as Sample);
    file.close();
    expect(readFileSync(path, 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
    const read: string[] = [];
    for await (const s of readResults(dir)) read.push(s.item_id);
    expect(read).toEqual(['a', 'c']);
  });

  it('writes the results of one event-loop turn together, and counts each only once it is in the file', async () => {
    const dir = runDirWith([]);
    const path = join(dir, 'results.ndjson');
    const file = new ResultsFile(path);
    const counted: number[] = [];
    for (let i = 0; i < 5; i += 1) file.append(JSON.parse(line(`x${i}`)) as Sample, () => counted.push(readFileSync(path, 'utf8').split('\n').filter(Boolean).length));
    expect(readFileSync(path, 'utf8')).toBe('');
    expect(counted).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(counted).toEqual([5, 5, 5, 5, 5]);
    expect(file.written).toBe(5);
    file.close();
  });

  it('writes lines of any size and script whole, however the batch buffer grows', async () => {
    const path = join(runDirWith([]), 'results.ndjson');
    const file = new ResultsFile(path);
    const texts = ['plain', '€'.repeat(40_000), '😀 emoji and ünïcödé', 'x'.repeat(300_000), ''];
    const samples = texts.map((text, i) => ({ ...(JSON.parse(line(`big${i}`)) as Sample), text }));
    for (const sample of samples) file.append(sample);
    await new Promise((resolve) => setImmediate(resolve));
    file.append(samples[0]!);
    file.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l) as Sample)).toEqual([...samples, samples[0]]);
  });

  it('writes a line as it is given: a short text is never searched inside the JSON', () => {
    const path = join(runDirWith([]), 'results.ndjson');
    const file = new ResultsFile(path);
    const sample = { ...(JSON.parse(line('a')) as Sample), text: 'ok 1 true' };
    file.append(sample);
    file.close();
    expect(JSON.parse(readFileSync(path, 'utf8').trim())).toEqual(sample);
  });
});
