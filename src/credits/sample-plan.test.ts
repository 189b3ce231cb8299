import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPlan, countUnits as countPlan, unitKeyOf, unitModel, unitRepeat } from '../plan/index.js';
import type { PlanThread as ThreadItem, PlanUnit as WorkItem } from '../plan/types.js';
import { parseSuite } from '../suite/load.js';
import { linkCount, sampleCap, selectSample, spreadIndices } from './sample-plan.js';

function suiteText(cases: number, threads: number[]): string {
  const lines = ['name: sample-test', 'models: [gpt-4o, gpt-4o-mini]', 'cases:'];
  for (let i = 0; i < cases; i += 1) lines.push(`  - { id: c${i}, prompt: "Question ${i}?" }`);
  if (threads.length) lines.push('threads:');
  threads.forEach((turns, i) => {
    lines.push(`  - id: t${i}`, '    turns:');
    for (let k = 0; k < turns; k += 1) lines.push(`      - prompt: "Turn ${k + 1} of ${i}?"`);
  });
  return lines.join('\n');
}

const planOf = (cases: number, threads: number[], repeat = 1) => buildPlan(parseSuite(Buffer.from(suiteText(cases, threads)), 'sample.yaml'), { repeat });
const requestsOf = (items: WorkItem[], model: string) => countPlan(items).per_model[model]?.requests ?? 0;

describe('spreadIndices', () => {
  it('takes one index from the middle of each equal stretch', () => {
    expect(spreadIndices(10, 3)).toEqual([1, 5, 8]);
    expect(spreadIndices(4, 4)).toEqual([0, 1, 2, 3]);
    expect(spreadIndices(3, 9)).toEqual([0, 1, 2]);
    expect(spreadIndices(5, 0)).toEqual([]);
  });
});

describe('selectSample', () => {
  it('takes the whole suite once per model when it fits', () => {
    const plan = planOf(3, [2], 3);
    const sample = selectSample(plan, 5);
    expect(sample.map(unitRepeat)).toEqual(Array(8).fill(1));
    expect(requestsOf(sample, 'gpt-4o')).toBe(5);
  });

  it('caps each model, spreads cases over the suite (each model from its own offset, but for a linking case every model is asked), and keeps at least two turns of a conversation', () => {
    const plan = planOf(10, [3, 2]);
    const sample = selectSample(plan, 5);
    // c4 is the linking case: the middle of the first model's cases, asked of every model.
    const expected: Record<string, { cases: string[]; thread: string }> = { 'gpt-4o': { cases: ['c0', 'c4', 'c7'], thread: 't0' }, 'gpt-4o-mini': { cases: ['c3', 'c4', 'c8'], thread: 't1' } };
    for (const [model, want] of Object.entries(expected)) {
      const own = sample.filter((i) => unitModel(i) === model);
      expect(requestsOf(sample, model)).toBe(5);
      expect(own.filter((i) => i.kind === 'case').map((i) => i.kind === 'case' && i.request.case_id)).toEqual(want.cases);
      const threads = own.filter((i): i is ThreadItem => i.kind === 'thread');
      expect(threads.map((t) => [t.thread_id, t.turns.map((x) => x.turn)])).toEqual([[want.thread, [1, 2]]]);
    }
    expect(selectSample(plan, 5)).toEqual(sample);
  });

  it('cuts conversations to their first turns when the budget is smaller, several when there are no cases', () => {
    const turnsOf = (items: WorkItem[]) => items.filter((i): i is ThreadItem => i.kind === 'thread' && i.model === 'gpt-4o').map((t) => [t.thread_id, t.turns.length]);
    expect(turnsOf(selectSample(planOf(0, [6, 6, 6]), 4))).toEqual([['t0', 2], ['t1', 2]]);
    expect(turnsOf(selectSample(planOf(0, [6, 6]), 5))).toEqual([['t0', 3], ['t1', 2]]);
    expect(turnsOf(selectSample(planOf(20, [6, 6]), 5))).toEqual([['t0', 2]]);
  });

  it('never passes the cap per model and sends each item at most once (property)', () => {
    const shape = fc.record({ cases: fc.integer({ min: 0, max: 30 }), threads: fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 6 }), cap: fc.integer({ min: 1, max: 40 }) });
    fc.assert(
      fc.property(shape, ({ cases, threads, cap }) => {
        fc.pre(cases + threads.length > 0);
        const plan = planOf(cases, threads);
        const sample = selectSample(plan, cap);
        const full = plan.counts.per_model['gpt-4o']!.requests;
        expect(requestsOf(sample, 'gpt-4o')).toBe(Math.min(cap, full));
        const keys = sample.map(unitKeyOf);
        expect(new Set(keys).size).toBe(keys.length);
      }),
    );
  });
});

describe('linking cases', () => {
  it('asks every model a quarter of the sampled cases (at least one), the rest each model its own', () => {
    expect([0, 1, 2, 3, 4, 8, 12].map(linkCount)).toEqual([0, 1, 1, 1, 1, 2, 3]);
    const plan = planOf(40, []);
    const casesOf = (model: string) => selectSample(plan, 8).filter((i) => unitModel(i) === model).map((i) => (i.kind === 'case' ? i.request.case_id : ''));
    const a = casesOf('gpt-4o');
    const b = casesOf('gpt-4o-mini');
    expect(a).toHaveLength(8);
    expect(b).toHaveLength(8);
    expect(a.filter((c) => b.includes(c))).toHaveLength(2);
  });
});

describe('sampleCap', () => {
  it('takes a share of the distinct items, at least two, at most all', () => {
    expect(sampleCap({ percent: 10 }, 15)).toBe(2);
    expect(sampleCap({ percent: 10 }, 50)).toBe(5);
    expect(sampleCap({ percent: 10 }, 51)).toBe(6);
    expect(sampleCap({ percent: 100 }, 15)).toBe(15);
    expect(sampleCap({ percent: 50 }, 1)).toBe(1);
    expect(sampleCap({ perModel: 7 }, 3)).toBe(7);
  });
});
