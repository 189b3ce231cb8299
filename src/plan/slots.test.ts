// Slots against the plain expansion they replace: every slot's entry and model, first slots, labels, counts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Suite, SuiteCase, SuiteThread } from '../domain/suite.js';
import { countUnits } from './build.js';
import { buildPlan } from './build.js';
import { label, modelsFor, type RunModels } from './run-models.js';
import { countSlots, Slots } from './slots.js';

const MODELS = ['gpt-4o', 'o3-mini', 'grok-2-1212'];
const restriction = fc.option(fc.subarray(MODELS, { minLength: 1 }), { nil: undefined });

function suiteOf(caseModels: (string[] | undefined)[], threadModels: (string[] | undefined)[], models: string[]): Suite {
  const location = { file: 'slots.yaml' };
  const cases: SuiteCase[] = caseModels.map((m, i) => ({ id: `c${i}`, prompt: 'Q', options: {}, assert: [], location, ...(m ? { models: m } : {}) }));
  const threads: SuiteThread[] = threadModels.map((m, i) => ({
    id: `t${i}`, location, turns: Array.from({ length: i + 1 }, (_, t) => ({ turn: t + 1, prompt: 'T', options: {}, assert: [], location })), ...(m ? { models: m } : {}),
  }));
  return { name: 's', path: '/s.yaml', sha256: '', target: {}, models, defaults: {}, cases, threads, thresholds: {}, warnings: [] };
}

/** The expansion build.ts used to keep: entry and model per slot. */
function naive(suite: Suite, run: RunModels) {
  const perEntry = [...[...suite.cases].map((c) => modelsFor(c.models, run)), ...suite.threads.map((t) => modelsFor(t.models, run))];
  const entry: number[] = [];
  const model: (string | null)[] = [];
  const first: number[] = [];
  perEntry.forEach((list, e) => {
    first.push(entry.length);
    for (const m of list) {
      entry.push(e);
      model.push(m);
    }
  });
  return { entry, model, first, perEntry };
}

const shape = fc.record({
  cases: fc.array(fc.oneof(fc.constant(undefined), restriction), { maxLength: 8 }),
  threads: fc.array(restriction, { maxLength: 3 }),
  models: fc.subarray(MODELS),
});

describe('Slots', () => {
  it('maps every slot to the entry and model of the plain expansion, restricted cases or not', () => {
    fc.assert(
      fc.property(shape, ({ cases, threads, models }) => {
        const suite = suiteOf(cases, threads, models);
        const run: RunModels = models.length > 0 ? { models, named: true } : { models: [null], named: false };
        const slots = Slots.of(suite, run);
        const plain = naive(suite, run);
        expect(slots.size).toBe(plain.entry.length);
        for (let s = 0; s < slots.size; s += 1) expect([slots.entryAt(s), slots.modelAt(s), slots.isCase(s)]).toEqual([plain.entry[s], plain.model[s], plain.entry[s]! < cases.length]);
        plain.first.forEach((first, e) => {
          expect(slots.firstSlot(e)).toBe(first);
          expect(slots.modelsOf(e)).toEqual(plain.perEntry[e]);
        });
        expect(slots.labels()).toEqual([...new Set(plain.model.map(label))]);
      }),
    );
  });

  it('counts as counting the built units does, per-model order included', () => {
    fc.assert(
      fc.property(shape, fc.integer({ min: 1, max: 3 }), ({ cases, threads, models }, repeat) => {
        const suite = suiteOf(cases, threads, models);
        const plan = buildPlan(suite, { repeat });
        const counted = countUnits(plan.units());
        expect(plan.counts).toEqual(counted);
        expect(Object.keys(plan.counts.per_model)).toEqual(Object.keys(counted.per_model));
        const run: RunModels = models.length > 0 ? { models, named: true } : { models: [null], named: false };
        const slots = Slots.of(suite, run);
        expect(countSlots(slots, suite, Array.from({ length: slots.size }, (_, i) => i)).items).toBe(slots.size);
      }),
    );
  });

  it('is arithmetic when no case restricts its models', () => {
    const suite = suiteOf(Array.from({ length: 1000 }, () => undefined), [undefined], ['gpt-4o', 'o3-mini']);
    const slots = Slots.of(suite, { models: ['gpt-4o', 'o3-mini'], named: true });
    expect(Object.values(slots).some((value) => ArrayBuffer.isView(value))).toBe(false);
    expect([slots.entryAt(1999), slots.modelAt(1999), slots.entryAt(2000), slots.modelAt(2001)]).toEqual([999, 'o3-mini', 1000, 'o3-mini']);
  });
});
