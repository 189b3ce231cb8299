// merge passes only a whole set of shards of one plan (issue 20 item 2, issue 17 defect 8): a missing
// shard or segment, or shards run with other --models/--repeat, is an input error (exit 2) naming it;
// --allow-partial merges what is there as incomplete (exit 3); an interrupted shard is incomplete (3).
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readJson, runCliInProcess as runCli, tempDir } from './helpers.js';

const SUITE = 'test/fixtures/e2e/small.yaml';
const PLAN = ['--models', 'gpt-4o-mini', '--latency-scale', '0'];

describe('merge of shards', () => {
  const root = tempDir();
  const shard = (i: number) => join(root, `s${i}of3`);
  beforeAll(async () => {
    const runs = await Promise.all([1, 2, 3].map((i) => runCli(['run', SUITE, ...PLAN, '--shard', `${i}/3`, '--out', shard(i)])));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
  }, 120_000);

  it('of all three passes (exit 0)', async () => {
    const r = await runCli(['merge', shard(1), shard(2), shard(3), '--out', join(root, 'all')]);
    expect(r.code, r.stderr).toBe(0);
  });

  it('with a shard missing is an input error naming it (exit 2), and writes nothing', async () => {
    const out = join(root, 'two');
    const r = await runCli(['merge', shard(1), shard(2), '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('shard 3/3 of 3 missing');
    expect(r.stderr).toContain('--allow-partial');
    expect(() => readFileSync(join(out, 'run.json'))).toThrow();
  });

  it('--allow-partial merges what is there as incomplete (exit 3)', async () => {
    const out = join(root, 'partial');
    const r = await runCli(['merge', shard(1), shard(2), '--out', out, '--allow-partial']);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain('shard 3/3 missing (--allow-partial)');
    expect(readJson<{ verdict: string }>(join(out, 'summary.json')).verdict).toBe('incomplete');
    expect(readJson<{ stop_reason: string }>(join(out, 'run.json')).stop_reason).toContain('shard 3/3 missing');
  });

  it('with a shard run with another --repeat or --models is an input error naming the flag (exit 2)', async () => {
    const other = join(root, 's3of3-repeat2');
    expect((await runCli(['run', SUITE, ...PLAN, '--shard', '3/3', '--repeat', '2', '--out', other])).code).toBe(0);
    const repeat = await runCli(['merge', shard(1), shard(2), other, '--out', join(root, 'mixed-repeat'), '--allow-partial']);
    expect(repeat.code).toBe(2);
    expect(repeat.stderr).toMatch(/were run with different plans \(--repeat 1 vs 2\)/);
    const models = join(root, 's3of3-models');
    expect((await runCli(['run', SUITE, '--models', 'gpt-4o', '--latency-scale', '0', '--shard', '3/3', '--out', models])).code).toBe(0);
    const model = await runCli(['merge', shard(1), shard(2), models, '--out', join(root, 'mixed-models')]);
    expect(model.code).toBe(2);
    expect(model.stderr).toMatch(/different plans \(--models \["gpt-4o-mini"\] vs \["gpt-4o"\]\)/);
  });

  it('with an interrupted shard is incomplete (exit 3), not a failure', async () => {
    const cut = join(root, 's3of3-interrupted');
    cpSync(shard(3), cut, { recursive: true });
    const info = readJson<Record<string, unknown>>(join(cut, 'run.json'));
    writeFileSync(join(cut, 'run.json'), JSON.stringify({ ...info, status: 'interrupted' }));
    const r = await runCli(['merge', shard(1), shard(2), cut, '--out', join(root, 'with-interrupted')]);
    expect(r.code, r.stderr).toBe(3);
    expect(readJson<{ verdict: string }>(join(root, 'with-interrupted', 'summary.json')).verdict).toBe('incomplete');
  });
});

describe('merge of open-loop segments', () => {
  it('with a segment missing is an input error: the merged target would be a part of the rate (exit 2)', async () => {
    const root = tempDir();
    const seg = (i: number) => join(root, `seg${i}`);
    const runs = await Promise.all([1, 2, 3].map((i) => runCli(['run', SUITE, ...PLAN, '--rate', '6', '--duration', '2s', '--shard', `${i}/3`, '--out', seg(i)])));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const two = await runCli(['merge', seg(1), seg(2), '--out', join(root, 'two')]);
    expect(two.code).toBe(2);
    expect(two.stderr).toContain('shard 3/3 of 3 missing');
    const all = await runCli(['merge', seg(1), seg(2), seg(3), '--out', join(root, 'all')]);
    expect(all.code, all.stderr).toBe(0);
  }, 60_000);
});
