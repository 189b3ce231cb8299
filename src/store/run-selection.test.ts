// What a recorded run selected: the failed cases and threads of a run directory, and a run's own --filter/--only-failed.
import { RecordedRunConfigSchema } from '../domain/run-config.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunInfo } from '../domain/run.js';
import { syntheticRunInfo, writeSyntheticRun } from '../report/test-support/synthetic-run.js';
import { onlyFailedFilter, recordedSelection } from './run-selection.js';

let dir = '';
let runDir = '';
let failed: { cases: Set<string>; threads: Set<string> };
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kbbench-selection-'));
  runDir = join(dir, 'run');
  const { samples } = await writeSyntheticRun(runDir, { repeats: 1 });
  failed = { cases: new Set(), threads: new Set() };
  for (const s of samples) {
    if (s.pass || s.outcome === 'skipped') continue;
    if (s.case_id !== null) failed.cases.add(s.case_id);
    else if (s.thread_id !== null) failed.threads.add(s.thread_id);
  }
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const subjects = [
  { kind: 'case', id: 'refund-window', tags: [] },
  { kind: 'case', id: 'shipping-times', tags: [] },
  { kind: 'case', id: 'escaping', tags: [] },
  { kind: 'thread', id: 'onboarding', tags: [] },
] as const;

function recorded(options: Record<string, unknown>): RunInfo {
  return { ...syntheticRunInfo(runDir), config: RecordedRunConfigSchema.parse({ plan: options }) };
}

describe('onlyFailedFilter', () => {
  it('keeps exactly the cases and threads with a failed result', async () => {
    const keep = await onlyFailedFilter(runDir);
    for (const s of subjects) expect(keep(s)).toBe((s.kind === 'case' ? failed.cases : failed.threads).has(s.id));
    expect(failed.cases.size + failed.threads.size).toBeGreaterThan(0);
  });

  it('refuses a directory that is not a run, naming the flag', async () => {
    await expect(onlyFailedFilter(join(dir, 'nowhere'))).rejects.toMatchObject({ code: 'E_INPUT', location: { field: '--only-failed' } });
  });
});

describe('recordedSelection', () => {
  it('is undefined for a run of the whole suite', async () => {
    expect(await recordedSelection(recorded({}))).toBeUndefined();
  });

  it('is null when the --only-failed directory is gone (which cases it meant is unknown)', async () => {
    expect(await recordedSelection(recorded({ onlyFailedDir: join(dir, 'gone') }))).toBeNull();
  });

  it('applies --filter and --only-failed both, as the run applied them', async () => {
    const keep = await recordedSelection(recorded({ filter: ['refund-*', 'onboarding'], onlyFailedDir: runDir }));
    expect(keep).toBeTypeOf('function');
    for (const s of subjects) {
      const byPattern = s.id === 'refund-window' || s.id === 'onboarding';
      const byFailure = (s.kind === 'case' ? failed.cases : failed.threads).has(s.id);
      expect(keep!(s)).toBe(byPattern && byFailure);
    }
  });
});
