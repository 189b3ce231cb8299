// Suite keys of load testing: think_time, weight, and thresholds in k6's object form.
import { describe, expect, it } from 'vitest';
import { parseSuite } from './load.js';

const yaml = (text: string) => parseSuite(Buffer.from(text), 'dir/inline.yaml');

describe('load-testing keys of a suite', () => {
  it('think_time: the suite\'s for every thread, a thread\'s own over it; weight on cases and threads', () => {
    const suite = yaml([
      'think_time: 1s-3s',
      'cases:',
      '  - { id: a, prompt: q, weight: 3 }',
      'threads:',
      '  - { id: t1, turns: [ { prompt: x }, { prompt: y } ] }',
      '  - { id: t2, think_time: 500ms, weight: 2, turns: [ { prompt: x } ] }',
    ].join('\n'));
    expect(suite.cases.at(0)!.weight).toBe(3);
    expect(suite.threads[0]!.think_time).toEqual({ min_ms: 1000, max_ms: 3000 });
    expect(suite.threads[1]!.think_time).toEqual({ min_ms: 500, max_ms: 500 });
    expect(suite.threads[1]!.weight).toBe(2);
  });

  it('thresholds in k6\'s object form: abortOnFail and delayAbortEval, beside plain expressions', () => {
    const suite = yaml([
      'cases: [ { id: a, prompt: q } ]',
      'thresholds:',
      '  ttfc_ms:',
      '    - p(50)<1000',
      '    - { threshold: p(95)<2000, abortOnFail: true, delayAbortEval: 10s }',
      '  errors: { threshold: rate<0.1 }',
    ].join('\n'));
    expect(suite.thresholds).toEqual({ ttfc_ms: ['p(50)<1000', 'p(95)<2000'], errors: ['rate<0.1'] });
    expect(suite.threshold_aborts).toEqual([{ key: 'ttfc_ms', expression: 'p(95)<2000', delay_abort_eval_ms: 10_000 }]);
  });

  it('a bad object-form threshold or think time names the field', () => {
    expect(() => yaml('cases: [ { id: a, prompt: q } ]\nthresholds:\n  ttfc_ms: { threshold: p(95)<, abortOnFail: true }')).toThrow(/thresholds/);
    expect(() => yaml('cases: [ { id: a, prompt: q } ]\nthresholds:\n  ttfc_ms: { threshold: p(95)<1, abortOnFail: yes please }')).toThrow(/thresholds\.ttfc_ms/);
    expect(() => yaml('think_time: soon\ncases: [ { id: a, prompt: q } ]')).toThrow(/think_time/);
  });
});
