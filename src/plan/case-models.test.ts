// Model lists per case: shared by number, a byte a case, wider only past 255 distinct lists.
import { describe, expect, it } from 'vitest';
import type { Suite, SuiteCase } from '../domain/suite.js';
import { CaseModels } from './case-models.js';

function suiteOf(models: (string[] | undefined)[], restrictsModels?: boolean): Suite {
  const cases: SuiteCase[] = models.map((m, i) => ({ id: `c${i}`, prompt: 'Q', options: {}, assert: [], location: { file: 'm.csv' }, ...(m ? { models: m } : {}) }));
  const list = restrictsModels === undefined ? cases : Object.assign([...cases], { restrictsModels });
  return { name: 'm', path: '/m.csv', sha256: '', target: {}, models: [], defaults: {}, cases: list, threads: [], thresholds: {}, warnings: [] };
}
const idsOf = (models: CaseModels) => (models as unknown as { ids: unknown }).ids;
const RUN = { models: ['gpt-4o', 'o3-mini'], named: true };

describe('CaseModels', () => {
  it('keeps nothing per case when no case restricts its models', () => {
    const models = CaseModels.read(suiteOf([undefined, undefined]), RUN, () => {});
    expect(idsOf(models)).toBeNull();
    expect(models.width).toBe(2);
    expect(models.modelsOf(1)).toEqual(['gpt-4o', 'o3-mini']);
  });

  it('does not read the cases when the list says none has models', () => {
    const suite = suiteOf([undefined], false);
    suite.cases[Symbol.iterator] = () => {
      throw new Error('read');
    };
    expect(CaseModels.read(suite, RUN, () => {}).width).toBe(2);
  });

  it('shares one list among cases that restrict alike: a byte a case, one width', () => {
    const models = CaseModels.read(suiteOf([['gpt-4o'], ['o3-mini', 'x'], undefined]), RUN, () => {});
    expect(idsOf(models)).toBeInstanceOf(Uint8Array);
    expect([0, 1, 2].map((e) => models.modelsOf(e))).toEqual([['gpt-4o'], ['o3-mini'], ['gpt-4o', 'o3-mini']]);
    expect(models.width).toBeNull(); // 1, 1 and 2 slots
    expect(models.usedLists(3)).toEqual([['gpt-4o'], ['o3-mini'], ['gpt-4o', 'o3-mini']]);
  });

  it('widens past 255 distinct lists and reports cases left without a model', () => {
    const restrictions = Array.from({ length: 300 }, (_, i) => [`m${i}`]);
    const excluded: string[] = [];
    const models = CaseModels.read(suiteOf(restrictions), { models: [null], named: false }, (id) => excluded.push(id));
    expect(idsOf(models)).toBeInstanceOf(Uint16Array);
    expect(models.modelsOf(299)).toEqual(['m299']);
    expect(models.width).toBe(1);
    expect(excluded).toEqual([]);
    CaseModels.read(suiteOf([['gpt-4o-mini'], undefined]), RUN, (id) => excluded.push(id));
    expect(excluded).toEqual(['c0']);
  });
});
