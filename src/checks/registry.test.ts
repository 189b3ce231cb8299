// Every check type through the registry, with the details a person reads.
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../domain/sample.js';
import { CHECK_TYPES, type CheckSpec } from '../domain/suite.js';
import { CHECK_HANDLERS, runChecks } from './registry.js';
import { containsCheck } from './text.js';
import type { CheckRegistry, CheckSubject } from './types.js';

const subject = (text: string, extra: Partial<CheckSubject> = {}): CheckSubject => ({ text, ttfc_ms: 120.25, latency_ms: 900, credits_used: 0.04975, ...extra });
const ANSWER = 'Refunds are accepted within 30 days of purchase. Contact support for a PRO plan refund.';

async function one(spec: CheckSpec, s: CheckSubject = subject(ANSWER)): Promise<CheckResult> {
  const [result] = await runChecks([spec], s);
  if (!result) throw new Error('no result');
  return result;
}

describe('the registry', () => {
  it('has a handler for every check type', () => {
    expect(Object.keys(CHECK_HANDLERS).sort()).toEqual([...CHECK_TYPES].sort());
    // @ts-expect-error: the compiler demands a handler for every kind.
    const partial: CheckRegistry = { contains: containsCheck };
    expect(partial).toBeDefined();
  });

  it('returns results in spec order and turns a crashing handler into a check not judged (never a pass)', async () => {
    const results = await runChecks(
      [
        { type: 'contains', value: '30 days' },
        { type: 'similar', value: null as unknown as { to: string; min: number } },
      ],
      subject(ANSWER),
    );
    expect(results.map((r) => [r.type, r.pass])).toEqual([
      ['contains', true],
      ['similar', null],
    ]);
    expect(results[1]?.detail).toMatch(/^not judged: the check could not run: /);
    expect(results[1]?.not_judged).toMatch(/^the check could not run: /);
  });
});

describe('text checks', () => {
  it('contains: passes and fails with a detail quoting the answer\'s nearest part', async () => {
    expect(await one({ type: 'contains', value: '30 days' })).toEqual({ type: 'contains', pass: true, detail: 'contains "30 days"' });
    expect(await one({ type: 'contains', value: '60 days' })).toEqual({
      type: 'contains',
      pass: false,
      detail: 'expected to contain "60 days"; nearest part "Refunds are accepted within 30 days of purchase.…"',
    });
    expect((await one({ type: 'contains', value: 'x' }, subject('  '))).detail).toBe('expected to contain "x"; the answer is empty');
  });

  it('contains reads curly quotes and line breaks as a reader would', async () => {
    expect((await one({ type: 'contains', value: "don't" }, subject('I don’t know'))).pass).toBe(true);
    expect((await one({ type: 'contains', value: '30 days' }, subject('within 30\n days'))).pass).toBe(true);
    expect((await one({ type: 'contains', value: 'pro plan' })).pass).toBe(false);
  });

  it('icontains ignores case', async () => {
    expect(await one({ type: 'icontains', value: 'pro plan' })).toMatchObject({ pass: true, detail: 'contains "pro plan" (ignoring case)' });
  });

  it('not-contains shows where the text was found', async () => {
    const result = await one({ type: 'not-contains', value: "I don't know" }, subject('Well… honestly, I don’t know the answer to that.'));
    expect(result).toEqual({ type: 'not-contains', pass: false, detail: 'expected not to contain "I don\'t know"; found at "Well… honestly, I don\'t know the answer to that."' });
    expect((await one({ type: 'not-contains', value: 'sorry' })).pass).toBe(true);
  });

  it('equals compares after trimming; starts-with ignores leading space', async () => {
    expect((await one({ type: 'equals', value: 'Yes.' }, subject('  Yes.\n'))).pass).toBe(true);
    expect((await one({ type: 'equals', value: 'Yes' }, subject('Yes.'))).detail).toBe('expected to equal "Yes"; nearest part "Yes."');
    expect((await one({ type: 'starts-with', value: 'Refunds are' }, subject('\n Refunds are ok'))).pass).toBe(true);
    expect((await one({ type: 'starts-with', value: 'No' })).pass).toBe(false);
  });

  it('regex: plain patterns have no flags, /…/i literals do', async () => {
    expect(await one({ type: 'regex', value: '\\b30\\b' })).toEqual({ type: 'regex', pass: true, detail: 'matches /\\b30\\b/: "30"' });
    expect((await one({ type: 'regex', value: 'refunds' })).pass).toBe(false);
    expect((await one({ type: 'regex', value: '/refunds/i' })).pass).toBe(true);
    expect((await one({ type: 'regex', value: '/refunds/gi' })).pass).toBe(true);
    expect((await one({ type: 'regex', value: '(' })).detail).toMatch(/^invalid regular expression \(: /);
  });

  it('regex: a catastrophically backtracking pattern fails within its time limit instead of stalling the run', async () => {
    // Unguarded, /^(a+)+$/ on 30 a's and a b takes seconds (doubling per character) on the event loop.
    // The guard said so (how long it took is bench/timing-claims.mjs's to measure).
    const result = await one({ type: 'regex', value: '^(a+)+$' }, subject(`${'a'.repeat(30)}b`));
    expect(result.pass).toBe(false);
    expect(result.detail).toMatch(/^could not be judged: \/\^\(a\+\)\+\$\/ took longer than 100 ms/);
    // The guard changes nothing for an ordinary pattern on a long answer.
    expect((await one({ type: 'regex', value: '/refund\\b/i' }, subject(`${'x '.repeat(200_000)}Refund`))).pass).toBe(true);
  });
});

describe('limit checks', () => {
  it('compare with ≤ and format values', async () => {
    expect(await one({ type: 'max-ttfc-ms', value: 2000 })).toEqual({ type: 'max-ttfc-ms', pass: true, detail: 'ttfc 120.3 ms ≤ 2000 ms' });
    expect(await one({ type: 'max-latency-ms', value: 500 })).toEqual({ type: 'max-latency-ms', pass: false, detail: 'latency 900.0 ms exceeds the limit of 500 ms' });
    expect(await one({ type: 'max-credits', value: 0.05 })).toEqual({ type: 'max-credits', pass: true, detail: 'credits 0.04975 ≤ 0.05' });
    expect((await one({ type: 'max-latency-ms', value: 900 })).pass).toBe(true);
  });

  it('fail with a reason when the value is unknown', async () => {
    const unknown = subject(ANSWER, { ttfc_ms: null, latency_ms: null, credits_used: null });
    expect(await one({ type: 'max-ttfc-ms', value: 1 }, unknown)).toEqual({ type: 'max-ttfc-ms', pass: false, detail: 'ttfc unknown (no content arrived); limit 1 ms' });
    expect((await one({ type: 'max-latency-ms', value: 1 }, unknown)).detail).toBe('latency unknown (the request did not complete); limit 1 ms');
    expect((await one({ type: 'max-credits', value: 1 }, unknown)).detail).toBe('credits unknown (the answer reported no credits; a stream needs include_usage); limit 1');
  });
});

describe('similar', () => {
  it('shows the score and compares it with the minimum', async () => {
    const pass = await one({ type: 'similar', value: { to: 'Refunds are accepted within 30 days of purchase.', min: 0.5 } });
    expect(pass.pass).toBe(true);
    expect(pass.detail).toMatch(/^similarity [01]\.\d{3} ≥ 0\.5$/);
    const fail = await one({ type: 'similar', value: { to: 'Our office is in Berlin.', min: 0.5 } });
    expect(fail).toMatchObject({ pass: false, detail: 'similarity 0.000 below the minimum 0.5 to "Our office is in Berlin.": "Berlin" of the reference is missing' });
  });
});
