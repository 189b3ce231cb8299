// compare never calls a check that could not be judged a regression (its grader failed, not the answer).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../domain/sample.js';
import { digestRun } from './collect.js';
import { matchItems } from './items.js';
import { runInfo, sample, writeRun } from '../test-support/fixtures.js';

async function digestOf(samples: Sample[]) {
  const dir = writeRun(join(mkdtempSync(join(tmpdir(), 'kbbench-notjudged-')), 'run'), samples);
  return digestRun(dir, runInfo());
}

function notJudged(spec: Parameters<typeof sample>[0]): Sample {
  const s = sample({ ...spec, pass: true });
  return {
    ...s,
    pass: false,
    not_judged: 'judge: the grader request failed: HTTP 500',
    checks: [...s.checks, { type: 'judge', pass: null, detail: 'not judged: the grader request failed: HTTP 500', not_judged: 'the grader request failed: HTTP 500' }],
  };
}

describe('not judged in compare', () => {
  it('is no regression and no failed check; a judged failure beside it still is', async () => {
    const base = await digestOf([sample({ caseId: 'two-factor', pass: true }), sample({ caseId: 'pickup-window', pass: true })]);
    const head = await digestOf([
      notJudged({ caseId: 'two-factor' }),
      { ...sample({ caseId: 'pickup-window', pass: false }), checks: [{ type: 'contains', pass: false, detail: 'expected to contain "72 hours"' }, { type: 'judge', pass: null, detail: 'not judged', not_judged: 'x' }] },
    ]);
    const m = matchItems(base.items, head.items);
    expect(m.regressions.map((r) => r.item_id)).toEqual(['case:pickup-window|model:gpt-4o']);
    const unjudged = (await digestOf([notJudged({ caseId: 'two-factor' })])).items.get('case:two-factor|model:gpt-4o')!;
    expect(unjudged.failedChecks).toEqual([]);
  });
});
