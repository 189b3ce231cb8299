import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { KNOWN_MODELS } from '../protocol/index.js';
import { CreditAccounts } from './credit-accounts.js';
import {
  DEFAULT_MODEL_PROFILES,
  drawChunkGapMs,
  drawTtfcMs,
  priceUnits,
  resolveModelProfiles,
  unitsToCredits,
} from './model-profiles.js';
import { createRandom } from './random.js';

describe('model profiles', () => {
  it('covers all seven documented models', () => {
    expect(Object.keys(DEFAULT_MODEL_PROFILES).sort()).toEqual([...KNOWN_MODELS].sort());
  });

  it('prices by input and output size, with fractional credits', () => {
    const sonnet = DEFAULT_MODEL_PROFILES['claude-sonnet-4-6'];
    expect(unitsToCredits(priceUnits(sonnet, 2000, 600))).toBe(0.05);
    expect(unitsToCredits(priceUnits(sonnet, 1995, 596))).toBe(0.04975);
    const mini = DEFAULT_MODEL_PROFILES['gpt-4o-mini'];
    expect(priceUnits(mini, 2000, 600)).toBeLessThan(priceUnits(sonnet, 2000, 600) / 10);
    expect(priceUnits(mini, 0, 0)).toBe(10);
  });

  it('draws seeded time to first chunk around each model’s median', () => {
    const profile = DEFAULT_MODEL_PROFILES['gpt-4o'];
    const draw = (seed: number): number[] => {
      const random = createRandom(seed);
      return Array.from({ length: 1001 }, () => drawTtfcMs(profile, random));
    };
    expect(draw(5)).toEqual(draw(5));
    const sorted = draw(5).sort((a, b) => a - b);
    expect(sorted[500]).toBeGreaterThan(profile.ttfcMedianMs * 0.9);
    expect(sorted[500]).toBeLessThan(profile.ttfcMedianMs * 1.1);
    const gap = drawChunkGapMs(profile, createRandom(1));
    expect(gap).toBeGreaterThanOrEqual((1000 / profile.chunksPerS) * 0.7);
    expect(gap).toBeLessThanOrEqual((1000 / profile.chunksPerS) * 1.3);
  });

  it('merges workspace overrides and adds new model names', () => {
    const profiles = resolveModelProfiles({ 'gpt-4o': { ttfcMedianMs: 1 }, 'new-model': { chunksPerS: 5 } });
    expect(profiles.get('gpt-4o')?.ttfcMedianMs).toBe(1);
    expect(profiles.get('gpt-4o')?.chunksPerS).toBe(DEFAULT_MODEL_PROFILES['gpt-4o'].chunksPerS);
    expect(profiles.get('new-model')).toMatchObject({ chunksPerS: 5, style: 'claude' });
  });
});

describe('credit accounts', () => {
  const account = { id: 'a', name: 'A', key: 'key-a', creditsUnits: 185_374_585 };

  it('lowers the balance by exactly the credits used, to 5 decimals', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20_000 }), { maxLength: 200 }), (prices) => {
        const accounts = new CreditAccounts([account]);
        let remaining = unitsToCredits(accounts.balanceUnits('a'));
        for (const units of prices) {
          const debit = accounts.debit('a', units);
          if (!debit.ok) continue;
          const now = unitsToCredits(debit.remainingUnits);
          expect(Number((remaining - unitsToCredits(units)).toFixed(5))).toBe(now);
          remaining = now;
        }
      }),
    );
  });

  it('refuses a debit it cannot cover and takes nothing', () => {
    const accounts = new CreditAccounts([{ ...account, creditsUnits: 100 }]);
    expect(accounts.debit('a', 101)).toEqual({ ok: false, remainingUnits: 100 });
    expect(accounts.debit('a', 100)).toEqual({ ok: true, remainingUnits: 0 });
    expect(accounts.accountForKey('key-a')?.id).toBe('a');
    expect(accounts.accountForKey('nope')).toBeUndefined();
    expect(() => accounts.debit('a', 0.5)).toThrow(RangeError);
  });
});
