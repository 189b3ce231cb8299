// finishReports (after a run, and `kbbench report DIR`): run.json's thresholds judged again on the results.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Summary } from '../domain/summary.js';
import { writeSyntheticRun } from '../report/test-support/synthetic-run.js';
import { finishReports } from './finish.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kbbench-finish-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('finishReports', () => {
  it('judges whatever thresholds run.json holds, in summary.json too', async () => {
    const { run } = await writeSyntheticRun(dir);
    const strict = await finishReports(dir, { ...run, thresholds: { 'ttfc_ms{model:gpt-4o-mini}': ['p(95)<1'], credits_used: ['sum<100'] } });
    expect(strict.thresholds.map((t) => [t.metric, t.pass])).toEqual([['ttfc_ms{model:gpt-4o-mini}', false], ['credits_used', true]]);
    expect(strict.thresholds[0]!.value).toBe(strict.models['gpt-4o-mini']!.ttfc_ms!.p95);
    expect(strict.verdict).toBe('fail');
    const written = JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8')) as Summary;
    expect(written.thresholds).toEqual(strict.thresholds);
    const none = await finishReports(dir, { ...run, thresholds: {} });
    expect(none.thresholds).toEqual([]);
  });
});
