// `validate --json` lists each request's checks as read, for every shipped suite: the counts per
// check type and the first request's checks are pinned here, so a change in how a suite reads shows.
import { describe, expect, it } from 'vitest';
import { runCliInProcess as runCli } from './helpers.js';

interface Plan {
  requests: { checks: { type: string; value: unknown }[] }[];
}

const SHIPPED: Record<string, { requests: number; types: Record<string, number>; first: unknown[] }> = {
  'suites/demo.yaml': { requests: 17, types: { contains: 9, 'not-contains': 2, regex: 3, icontains: 10 }, first: [{ type: 'contains', value: '30 days' }, { type: 'not-contains', value: "I don't know" }, { type: 'regex', value: '\\b30\\b' }] },
  'suites/demo.csv': { requests: 17, types: { contains: 9, 'not-contains': 2, regex: 3, icontains: 10 }, first: [{ type: 'contains', value: '30 days' }, { type: 'not-contains', value: "I don't know" }, { type: 'regex', value: '\\b30\\b' }] },
  'suites/parcel-lockers/suite.yaml': {
    requests: 6,
    types: { contains: 2, factuality: 1, 'answer-relevance': 1, judge: 2, 'context-faithfulness': 1, 'icontains-all': 1, 'context-recall': 1 },
    first: [{ type: 'contains', value: '72 hours' }, { type: 'factuality', value: { reference: 'You have 72 hours to collect a parcel from the locker.' } }, { type: 'answer-relevance', value: {} }],
  },
  'suites/load-demo.yaml': { requests: 8, types: { contains: 7, regex: 1, icontains: 2 }, first: [{ type: 'contains', value: '€29' }] },
};

describe('validate --json: checks as read, every shipped suite', () => {
  it.each(Object.entries(SHIPPED))('%s', async (suite, expected) => {
    const r = await runCli(['validate', suite, '--json', '--models', 'gpt-4o']);
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as Plan;
    const types: Record<string, number> = {};
    for (const request of plan.requests) for (const check of request.checks) types[check.type] = (types[check.type] ?? 0) + 1;
    expect(plan.requests).toHaveLength(expected.requests);
    expect(types).toEqual(expected.types);
    expect(plan.requests.find((request) => request.checks.length > 0)?.checks).toEqual(expected.first);
  });
});
