// promptfoo's negated and list checks, through the registry.
import { describe, expect, it } from 'vitest';
import type { CheckSpec } from '../domain/suite.js';
import { runChecks } from './registry.js';

const ANSWER = 'Refunds are accepted within 30 days of purchase. Contact support for a PRO plan refund.';
const subject = { text: ANSWER, ttfc_ms: 1, latency_ms: 2, credits_used: 0.01 };
const run = async (spec: CheckSpec) => (await runChecks([spec], subject))[0]!;

describe('negated checks', () => {
  it.each([
    [{ type: 'not-icontains', value: "don't know" }, true],
    [{ type: 'not-icontains', value: 'pro PLAN' }, false],
    [{ type: 'not-equals', value: 'Yes.' }, true],
    [{ type: 'not-starts-with', value: 'Refunds' }, false],
    [{ type: 'not-regex', value: '\\b45\\b' }, true],
    [{ type: 'not-regex', value: '\\b30\\b' }, false],
  ] as [CheckSpec, boolean][])('%o passes: %s', async (spec, pass) => {
    const result = await run(spec);
    expect(result.pass).toBe(pass);
    expect(result.type).toBe(spec.type);
    expect(result.detail).toMatch(pass ? /^does not / : /^expected not to /);
  });

  it('a regex that cannot be judged does not pass its negation', async () => {
    const result = await run({ type: 'not-regex', value: '(a' });
    expect(result.pass).toBe(false);
  });
});

describe('list checks', () => {
  it.each([
    [{ type: 'contains-any', value: ['45 days', '30 days'] }, true],
    [{ type: 'contains-any', value: ['45 days', 'pro plan'] }, false],
    [{ type: 'contains-all', value: ['30 days', 'PRO'] }, true],
    [{ type: 'contains-all', value: ['30 days', 'pro'] }, false],
    [{ type: 'icontains-any', value: ['nothing', 'pro plan'] }, true],
    [{ type: 'icontains-all', value: ['REFUNDS', 'pro plan'] }, true],
    [{ type: 'icontains-all', value: ['refunds', 'enterprise'] }, false],
  ] as [CheckSpec, boolean][])('%o passes: %s', async (spec, pass) => {
    expect((await run(spec)).pass).toBe(pass);
  });

  it('names what is missing', async () => {
    expect((await run({ type: 'contains-all', value: ['30 days', 'Enterprise'] })).detail).toMatch(/missing "Enterprise"/);
  });
});
