// The answer's part nearest to what a failed check expected.
import { describe, expect, it } from 'vitest';
import { nearestPart } from './nearest.js';
import { runChecks } from './registry.js';

const ANSWER =
  'According to the knowledge base: - You need a valid photo ID for every rental. - Helmets are included. ' +
  'The deposit for an e-bike is €350; for a city bike it is €100. The deposit is returned when the bike comes back.';

describe('nearestPart', () => {
  it('shows the sentence holding the differing figure, not the answer start', () => {
    expect(nearestPart(ANSWER, '€300')).toBe('"…The deposit for an e-bike is €350; for a city bike it is €100.…"');
  });

  it('matches ignoring case, and marks an answer that goes on', () => {
    expect(nearestPart('Opening hours. The SHOP opens at 9:00 on Saturdays', 'shop opens at 8:00')).toBe('"…The SHOP opens at 9:00 on Saturdays"');
  });

  it('cuts a long sentence to a window around the match', () => {
    const long = `${'word '.repeat(60)}the fee is €12 per hour ${'more '.repeat(60)}`;
    const part = nearestPart(long, '€10 per hour')!;
    expect(part).toContain('the fee is €12 per hour');
    expect(part.length).toBeLessThanOrEqual(68);
    expect(part.startsWith('"…')).toBe(true);
  });

  it('says nothing when the answer shares no two characters with the value', () => {
    expect(nearestPart('Yes.', 'no')).toBeUndefined();
    expect(nearestPart('abc', 'xyz')).toBeUndefined();
  });

  it('finds the part in a long answer (560,000 characters: work quadratic in its length would outlast the test timeout)', () => {
    const long = 'lorem ipsum dolor sit amet. '.repeat(20_000);
    expect(nearestPart(long, 'ipsum dolor sat amet')).toContain('dolor sit amet');
  });
});

describe('failed text checks show the nearest part', () => {
  const subject = { text: ANSWER, ttfc_ms: 1, latency_ms: 2, credits_used: 0 };
  it.each([
    ['contains', '€300'],
    ['icontains', '€300'],
    ['equals', 'The deposit for an e-bike is €300'],
  ] as const)('%s', async (type, value) => {
    const [result] = await runChecks([{ type, value }], subject);
    expect(result!.detail).toContain('nearest part "…The deposit for an e-bike is €350;');
  });

  it('contains-all: near the first missing value', async () => {
    const [result] = await runChecks([{ type: 'contains-all', value: ['photo ID', '€300'] }], subject);
    expect(result!.detail).toMatch(/missing "€300"; nearest part "…The deposit for an e-bike is €350/);
  });
});

describe('nearestPart reads figures as figures', () => {
  it('finds a price that differs in every digit', () => {
    expect(nearestPart('Plans: - **Business** — for larger teams, €99 per user. Call us.', '€79')).toBe('"Plans: - **Business** — for larger teams, €99 per user.…"');
  });

  it('ignores a short accidental run ("ro" of "pro rata")', () => {
    expect(nearestPart('According to the knowledge base: refunds are granted in full.', 'pro rata')).toBeUndefined();
  });
});

describe('nearestPart does not take any number for a figure', () => {
  it('a price the answer never names: no part (the answer start is shown instead)', () => {
    expect(nearestPart('Every new workspace starts with a 14-day free trial of the Business plan.', '€79')).toBeUndefined();
  });

  it('a whole figure in another value still counts', () => {
    expect(nearestPart('Call 030 1234 5678 any time.', '+49 30 1234 5678')).toBe('"Call 030 1234 5678 any time."');
  });
});
