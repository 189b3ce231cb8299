// Evidence stays bounded: cells and prompts only for the cases the matrix can show, problems admitted past the first ones.
import { describe, expect, it } from 'vitest';
import type { Sample } from '../domain/sample.js';
import { createEvidenceCollector, EVIDENCE_LIMITS } from './evidence.js';
import { syntheticSamples } from './test-support/synthetic-run.js';

const base = syntheticSamples({ repeats: 1 })[0]!;

describe('createEvidenceCollector', () => {
  it('keeps the first groups started and the first groups with a problem, and nothing else', () => {
    const collector = createEvidenceCollector();
    const total = 20_000;
    for (let i = 0; i < total; i++) {
      const failing = i % 10 === 9;
      const sample: Sample = { ...base, item_id: `case:c${i}|m|r1`, case_id: `c${i}`, prompt: `prompt ${i}`, pass: !failing, checks: [{ type: 'contains', pass: !failing, detail: '' }] };
      collector.add(sample);
      collector.add({ ...sample, repeat: 2 });
    }
    const evidence = collector.result();
    const limit = EVIDENCE_LIMITS.groupsInRunOrder + EVIDENCE_LIMITS.groupsWithProblems;
    expect(evidence.cells.size).toBe(limit);
    expect(evidence.prompts.size).toBe(limit);
    expect(evidence.cells.has('case:c0')).toBe(true);
    expect(evidence.cells.has('case:c600')).toBe(false);
    // Past the first 500, only failing cases: c509, c519, … each with both repeats' answers.
    expect(evidence.cells.get('case:c509')?.get(base.model)?.answers).toHaveLength(2);
    expect(evidence.cells.get('case:c509')?.get(base.model)?.firstFailure).not.toBeNull();
    expect(evidence.cells.has(`case:c${total - 1}`)).toBe(false);
  });

  it('admits a thread as a whole: later turns of a kept thread keep their answers', () => {
    const collector = createEvidenceCollector();
    for (let i = 0; i < EVIDENCE_LIMITS.groupsInRunOrder; i++) collector.add({ ...base, case_id: `c${i}` });
    const turn = (n: number, pass: boolean): Sample => ({ ...base, case_id: null, thread_id: 'late', turn: n, pass });
    collector.add(turn(1, true));
    collector.add(turn(2, false));
    collector.add(turn(3, true));
    const { cells } = collector.result();
    expect([...cells.keys()].filter((k) => k.startsWith('thread:'))).toEqual(['thread:late#2', 'thread:late#3']);
  });

  it('counts every request error, kept case or not', () => {
    const collector = createEvidenceCollector();
    for (let i = 0; i < 2000; i++) collector.add({ ...base, case_id: `c${i}`, outcome: 'timeout', pass: false, error: { code: 'E_TIMEOUT', message: 'late' } });
    expect(collector.result().errors).toMatchObject([{ kind: 'E_TIMEOUT', count: 2000 }]);
  });
});
