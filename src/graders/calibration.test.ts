// A grader earns its gate per check type; reports then take people's labels first and leave ungated checks out of the verdict.
import { describe, expect, it } from 'vitest';
import type { Sample } from '../domain/sample.js';
import { agreement } from './agreement.js';
import { calibrate, fileAgreement } from './calibration.js';
import { reviewedSample } from './people-first.js';
import { createAgreementCollector } from './run-agreement.js';
import { LABELS_HEADER, parseRunLabels } from './run-labels.js';

const pairs = (list: [boolean, boolean][]) => list.map(([human, grader]) => ({ human, grader }));
const rule = { min_kappa: 0.6, min_labels: 4, labels: 'labels.csv' };

describe('calibrate', () => {
  it('gates a type whose kappa reaches the bar over enough labels, and says why the others do not', () => {
    const groups = {
      judge: agreement(pairs([[true, true], [true, true], [false, false], [false, false]])),
      factuality: agreement(pairs([[true, false], [false, true], [true, true], [false, false]])),
      'answer-relevance': agreement(pairs([[true, true]])),
    };
    const c = calibrate(rule, groups, ['judge', 'factuality', 'answer-relevance', 'context-recall', 'contains']);
    expect(c.types.judge).toMatchObject({ gating: true, kappa: 1, reason: 'kappa 1.00 ≥ 0.6 over 4 labels' });
    expect(c.types.factuality).toMatchObject({ gating: false, reason: 'kappa 0.00 < 0.6 over 4 labels' });
    expect(c.types['answer-relevance']).toMatchObject({ gating: false, reason: '1 label, fewer than the 4 required' });
    expect(c.types['context-recall']).toMatchObject({ gating: false, n: 0 });
    expect(c.types.contains).toBeUndefined();
  });

  it('measures a labels file alone on the grader verdicts recorded beside the people\'s', () => {
    const row = (i: number, human: string, grader: string) => `a${i}#1:judge,q,a,,r,llm-rubric,${human},,a${i},1:judge,${grader},t\n`;
    const labels = parseRunLabels(LABELS_HEADER + row(1, 'pass', 'pass') + row(2, 'fail', 'pass') + row(3, 'fail', 'not judged'), 'l.csv');
    expect(fileAgreement(labels).judge).toMatchObject({ n: 2, confusion: { both_pass: 1, grader_pass_human_fail: 1 } });
  });
});

const sample = (checks: Sample['checks'], pass: boolean): Sample => ({ item_id: 'i', model: 'm', outcome: 'ok', pass, checks }) as Sample;

describe('reviewedSample', () => {
  const failingJudge = sample([{ type: 'contains', pass: true, detail: '' }, { type: 'judge', pass: false, detail: 'no' }], false);
  const calibration = calibrate(rule, {}, ['judge']);

  it('leaves an ungated check out of the verdict, keeping it (and the grader\'s verdict) beside', () => {
    const out = reviewedSample(failingJudge, undefined, calibration);
    expect(out.pass).toBe(true);
    expect(out.grader_pass).toBe(false);
    expect(out.checks[1]!.not_gating).toBe('0 labels, fewer than the 4 required');
  });

  it("takes a person's label as the verdict", () => {
    const out = reviewedSample(failingJudge, { human: true, note: 'fine' }, undefined);
    expect(out).toMatchObject({ pass: true, grader_pass: false, person: { pass: true, note: 'fine' } });
  });

  it('counts agreement per model-graded type, the deterministic checks together, and the answer', () => {
    const collector = createAgreementCollector(new Map([['i', { human: true, note: '' }]]));
    collector.add(failingJudge);
    const r = collector.result();
    expect(r.labelled_answers).toBe(1);
    expect(Object.keys(r.groups).sort()).toEqual(['answer', 'deterministic', 'judge']);
    expect(r.disagreements.map((d) => d.group).sort()).toEqual(['answer', 'judge']);
  });
});
