// The data `kbbench validate` prints.
import { describe, expect, it } from 'vitest';
import { parseSuite } from '../suite/load.js';
import { buildPlan } from './build.js';
import { describePlan, describePlanLazily } from './describe.js';
import type { Plan } from './types.js';

const suite = parseSuite(
  Buffer.from(
    [
      'models: [gpt-4o]',
      'defaults: { streaming: true }',
      'cases:',
      '  - { id: a, prompt: A, method: get, assert: [ { contains: x } ] }',
      'threads:',
      '  - id: t',
      '    name: Talk',
      '    turns: [ { prompt: One }, { prompt: Two, streaming: false } ]',
    ].join('\n'),
  ),
  'd.yaml',
);

describe('describePlan', () => {
  it('lists per-model counts, threads, and every request with endpoint, method, streaming, model', () => {
    const description = describePlan(buildPlan(suite, { shard: { index: 1, count: 1 } }));
    expect(description).toMatchObject({
      suite: { name: 'd' },
      models: ['gpt-4o'],
      repeat: 1,
      shard: '1/1',
      per_model: [{ model: 'gpt-4o', items: 2, cases: 1, threads: 1, requests: 3 }],
      threads: [{ thread_id: 't', name: 'Talk', turns: 2, models: ['gpt-4o'] }],
      excluded: [],
      warnings: [],
    });
    expect(description.requests).toEqual([
      { id: 'case:a|model:gpt-4o|r1', endpoint: 'ask', method: 'get', streaming: true, model: 'gpt-4o', prompt: 'A', checks: [{ type: 'contains', value: 'x' }] },
      { id: 'thread:t|model:gpt-4o|r1', endpoint: 'create', method: 'post', streaming: false, model: 'gpt-4o', prompt: null, checks: [] },
      { id: 'thread:t|turn:1|model:gpt-4o|r1', endpoint: 'continue', method: 'post', streaming: true, model: 'gpt-4o', prompt: 'One', checks: [] },
      { id: 'thread:t|turn:2|model:gpt-4o|r1', endpoint: 'continue', method: 'post', streaming: false, model: 'gpt-4o', prompt: 'Two', checks: [] },
    ]);
  });

  it('lists each thread once, in the order the plan first reaches it, with its models: as holding every unit did', () => {
    // The listing before it was computed as read: every unit's thread gathered in a Map of objects.
    const reference = (plan: Plan) => {
      const threads = new Map<string, { thread_id: string; name?: string; turns: number; models: string[] }>();
      for (const item of plan.units()) {
        if (item.kind !== 'thread') continue;
        const entry = threads.get(item.thread_id) ?? { thread_id: item.thread_id, turns: item.turns.length, models: [] };
        if (item.name !== undefined) entry.name = item.name;
        if (!entry.models.includes(item.model)) entry.models.push(item.model);
        threads.set(item.thread_id, entry);
      }
      return [...threads.values()];
    };
    const many = parseSuite(
      Buffer.from(['models: [m1, m2, m3]', 'threads:', ...Array.from({ length: 12 }, (_, i) => `  - { id: t${i}, ${i % 3 ? `name: N${i}, ` : ''}${i % 4 === 0 ? 'models: [m3, m1], ' : ''}turns: [ { prompt: p }${i % 2 ? ', { prompt: q }' : ''} ] }`)].join('\n')),
      'many.yaml',
    );
    for (const options of [{}, { repeat: 3 }, { repeat: 3, shard: { index: 1, count: 3 } }, { repeat: 2, shard: { index: 3, count: 4 } }]) {
      const plan = buildPlan(many, options);
      const lazy = describePlanLazily(plan);
      expect([...lazy.threads]).toEqual(reference(plan));
      // Each read is a new pass: reading twice gives the same.
      expect([...lazy.threads]).toEqual([...lazy.threads]);
      expect([...lazy.requests]).toEqual(describePlan(plan).requests);
    }
  });
});
