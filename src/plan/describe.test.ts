// The data `kbbench validate` prints.
import { describe, expect, it } from 'vitest';
import { parseSuite } from '../suite/load.js';
import { buildPlan } from './build.js';
import { describePlan } from './describe.js';

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
      { id: 'case:a|model:gpt-4o|r1', endpoint: 'ask', method: 'get', streaming: true, model: 'gpt-4o', prompt: 'A', checks: 1 },
      { id: 'thread:t|model:gpt-4o|r1', endpoint: 'create', method: 'post', streaming: false, model: 'gpt-4o', prompt: null, checks: 0 },
      { id: 'thread:t|turn:1|model:gpt-4o|r1', endpoint: 'continue', method: 'post', streaming: true, model: 'gpt-4o', prompt: 'One', checks: 0 },
      { id: 'thread:t|turn:2|model:gpt-4o|r1', endpoint: 'continue', method: 'post', streaming: false, model: 'gpt-4o', prompt: 'Two', checks: 0 },
    ]);
  });
});
