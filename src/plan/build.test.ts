// Expanding a suite into work items: models, repeats, option precedence, stable ids, sharding.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../domain/errors.js';
import { parseSuite } from '../suite/load.js';
import { buildPlan, unitKeyOf as itemKey } from './build.js';
import { caseId, formatItemId, threadKey } from './item-id.js';
import type { Plan, PlanCase as CaseItem, PlanThread as ThreadItem } from './types.js';

const items = (plan: Plan) => [...plan.units()];

const SUITE = [
  'name: plan-test',
  'models: [gpt-4o, o3-mini]',
  'defaults: { streaming: true, method: post, user: suite }',
  'cases:',
  '  - id: refund',
  '    prompt: Refunds?',
  '    streaming: false',
  '    assert: [ { contains: 30 days } ]',
  '  - id: only-mini',
  '    prompt: Mini?',
  '    models: [o3-mini, grok-2-1212]',
  'threads:',
  '  - id: onboarding',
  '    name: Onboarding',
  '    turns:',
  '      - prompt: Plans?',
  '      - prompt: Price?',
  '        method: get',
].join('\n');

const suite = parseSuite(Buffer.from(SUITE), 'plan.yaml');
const ids = (units: readonly (CaseItem | ThreadItem)[]) => units.map(itemKey);

describe('buildPlan', () => {
  it('expands cases and threads over the suite models, repeat by repeat, with stable ids', () => {
    const plan = buildPlan(suite, { repeat: 2 });
    expect(ids(items(plan))).toEqual([
      'case:refund|model:gpt-4o|r1',
      'case:refund|model:o3-mini|r1',
      'case:only-mini|model:o3-mini|r1',
      'thread:onboarding|model:gpt-4o|r1',
      'thread:onboarding|model:o3-mini|r1',
      'case:refund|model:gpt-4o|r2',
      'case:refund|model:o3-mini|r2',
      'case:only-mini|model:o3-mini|r2',
      'thread:onboarding|model:gpt-4o|r2',
      'thread:onboarding|model:o3-mini|r2',
    ]);
    const thread = items(plan)[3] as ThreadItem;
    expect(thread).toMatchObject({ kind: 'thread', thread_id: 'onboarding', name: 'Onboarding', model: 'gpt-4o', repeat: 1 });
    expect(thread.turns.map((t) => [formatItemId(t.id), t.turn])).toEqual([
      ['thread:onboarding|turn:1|model:gpt-4o|r1', 1],
      ['thread:onboarding|turn:2|model:gpt-4o|r1', 2],
    ]);
    expect(items(buildPlan(suite, { repeat: 2 }))).toEqual(items(plan));
  });

  it('counts items, requests, threads and per-model figures', () => {
    const plan = buildPlan(suite, { repeat: 2 });
    expect(plan.counts).toEqual({
      items: 10,
      cases: 6,
      threads: 4,
      turns: 8,
      requests: 14,
      per_model: {
        'gpt-4o': { items: 4, cases: 2, threads: 2, requests: 6 },
        'o3-mini': { items: 6, cases: 4, threads: 2, requests: 8 },
      },
    });
    expect(plan).toMatchObject({ models: ['gpt-4o', 'o3-mini'], repeat: 2, shard: null, excluded: [], warnings: [] });
  });

  it('merges options: suite defaults, then the case or turn, then flags', () => {
    const plain = buildPlan(suite);
    const refund = items(plain)[0] as CaseItem;
    expect(refund.request.options).toEqual({ streaming: false, method: 'post', user: 'suite' });
    expect(refund.request.checks).toEqual(suite.cases.at(0)?.assert);
    const turn2 = (items(plain).find((i) => i.kind === 'thread') as ThreadItem).turns[1];
    expect(turn2?.options).toEqual({ streaming: true, method: 'get', user: 'suite' });
    const flagged = buildPlan(suite, { defaults: { streaming: true, method: 'post', include_usage: true } });
    expect((items(flagged)[0] as CaseItem).request.options).toEqual({ streaming: true, method: 'post', user: 'suite', include_usage: true });
    expect((items(flagged).find((i) => i.kind === 'thread') as ThreadItem).turns[1]?.options.method).toBe('post');
  });

  it('lets --models replace the suite models and intersects case restrictions with them', () => {
    const plan = buildPlan(suite, { models: ['grok-2-1212', 'gpt-4o', 'gpt-4o', 'mystery-1'] });
    expect(plan.models).toEqual(['grok-2-1212', 'gpt-4o', 'mystery-1']);
    expect(ids(items(plan)).filter((id) => id.startsWith('case:only-mini'))).toEqual(['case:only-mini|model:grok-2-1212|r1']);
    expect(plan.warnings).toEqual(['--models: unknown model "mystery-1"; it will be sent as written']);
    const none = buildPlan(suite, { models: ['gpt-4o'] });
    expect(none.excluded).toEqual([{ kind: 'case', id: 'only-mini', reason: 'restricted to o3-mini, grok-2-1212, none of which this run uses (gpt-4o)' }]);
  });

  it('uses the label "default" and sends no model when nobody names one', () => {
    const csv = parseSuite(Buffer.from('id,prompt,model\na,Hi,\nb,Hi,gpt-4o\n'), 'x.csv');
    const plan = buildPlan(csv);
    expect(items(plan).map((i) => [itemKey(i), (i as CaseItem).request.request_model])).toEqual([
      ['case:a|model:default|r1', null],
      ['case:b|model:gpt-4o|r1', 'gpt-4o'],
    ]);
    expect(plan.models).toEqual(['default', 'gpt-4o']);
  });

  it('refuses a repeat that is not a whole number ≥ 1, and a bad shard', () => {
    expect(() => buildPlan(suite, { repeat: 0 })).toThrow(InputError);
    expect(() => buildPlan(suite, { repeat: 1.5 })).toThrow(/--repeat 1.5: must be a whole number ≥ 1/);
    expect(() => buildPlan(suite, { shard: { index: 3, count: 2 } })).toThrow(/--shard 3\/2/);
  });
});

describe('sharding', () => {
  it('partitions the plan exactly: the union of all shards is the plan, with no overlap', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 4 }), (count, repeat) => {
        const full = ids(items(buildPlan(suite, { repeat })));
        const shards = Array.from({ length: count }, (_, i) => ids(items(buildPlan(suite, { repeat, shard: { index: i + 1, count } }))));
        const union = shards.flat();
        expect(new Set(union).size).toBe(union.length);
        expect([...union].sort()).toEqual([...full].sort());
      }),
      { numRuns: 40 },
    );
  });

  it('keeps a conversation whole and is the same in every process', () => {
    const shard = buildPlan(suite, { repeat: 3, shard: { index: 2, count: 3 } });
    for (const item of items(shard)) if (item.kind === 'thread') expect(item.turns).toHaveLength(2);
    expect(items(buildPlan(suite, { repeat: 3, shard: { index: 2, count: 3 } }))).toEqual(items(shard));
    expect(shard.shard).toEqual({ index: 2, count: 3 });
    expect(shard.counts.items).toBe(items(shard).length);
  });

  it('spreads items over shards roughly evenly', () => {
    const many = parseSuite(Buffer.from(`cases:\n${Array.from({ length: 400 }, (_, i) => `  - { id: c${i}, prompt: Q }`).join('\n')}\n`), 'many.yaml');
    const sizes = [1, 2, 3, 4].map((index) => items(buildPlan(many, { shard: { index, count: 4 } })).length);
    expect(sizes.reduce((a, b) => a + b)).toBe(400);
    for (const size of sizes) expect(size).toBeGreaterThan(70);
  });
});

describe('the lazy plan', () => {
  it('counts a million units without making them, and computes any one when asked', () => {
    const plan = buildPlan(suite, { repeat: 200_000 });
    expect(plan.counts.items).toBe(1_000_000);
    expect(plan.counts.requests).toBe(1_400_000);
    expect(plan.space).toBe(1_000_000);
    const last = plan.unitAt(999_999)!;
    expect(itemKey(last)).toBe('thread:onboarding|model:o3-mini|r200000');
    expect(plan.unitAt(1_000_000)).toBeNull();
  });

  it('finds the place of an id again (resume marks places, not strings)', () => {
    const plan = buildPlan(suite, { repeat: 3 });
    for (const unit of plan.units()) {
      const id = unit.kind === 'case' ? unit.request.id : unit.key;
      expect(plan.indexOf(id)).toBe(unit.index);
    }
    expect(plan.indexOf(caseId('refund', 'gpt-4o', 4))).toBeNull();
    expect(plan.indexOf(caseId('nope', 'gpt-4o', 1))).toBeNull();
    expect(plan.indexOf(threadKey('onboarding', 'mystery', 1))).toBeNull();
  });

  it('a shard knows only its own places', () => {
    const shard = buildPlan(suite, { repeat: 2, shard: { index: 1, count: 2 } });
    const mine = new Set(items(shard).map((u) => u.index));
    for (let i = 0; i < shard.space; i += 1) expect(shard.unitAt(i) !== null).toBe(mine.has(i));
  });
});
