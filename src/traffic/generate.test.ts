import { describe, expect, it } from 'vitest';
import type { Suite } from '../domain/suite.js';
import { generateTraffic, shapeFactor, type GenerateOptions } from './generate.js';

const location = { file: 's.yaml', line: 1, column: 1 };
const suite = {
  cases: [{ id: 'refund', prompt: 'Refunds?', options: {}, assert: [], location }, { id: 'plans', prompt: 'Plans?', options: {}, assert: [], location }],
  threads: [{ id: 'onboarding', location, turns: [1, 2, 3].map((turn) => ({ turn, prompt: `turn ${turn}`, options: {}, assert: [], location })) }],
} as unknown as Suite;
const options: GenerateOptions = { shape: 'diurnal', seed: 1, durationMs: 3_600_000, ratePerS: 0.5 };

describe('shapeFactor', () => {
  it('averages 1 over the duration, so --rate is the mean', () => {
    for (const shape of ['diurnal', 'bursty'] as const) {
      let sum = 0;
      for (let i = 0; i < 1000; i += 1) sum += shapeFactor(shape, (i + 0.5) / 1000);
      expect(sum / 1000).toBeCloseTo(1, 2);
    }
  });
});

describe('generateTraffic', () => {
  it('is seeded, ordered by at, near the asked mean rate and shaped', () => {
    const lines = [...generateTraffic(suite, options)];
    expect([...generateTraffic(suite, options)]).toEqual(lines);
    expect(lines.map((l) => l.at)).toEqual([...lines.map((l) => l.at)].sort((a, b) => a - b));
    const arrivals = lines.filter((l) => l.conversation === undefined || l.prompt === 'turn 1').length;
    expect(arrivals / 3600).toBeGreaterThan(0.4);
    expect(arrivals / 3600).toBeLessThan(0.6);
    // Diurnal: the middle of the day is busier than its start.
    const inQuarter = (q: number): number => lines.filter((l) => Math.floor(l.at / 900) === q).length;
    expect(inQuarter(2)).toBeGreaterThan(inQuarter(0) * 2);
  });

  it('writes a thread as a conversation whose turns come in order, a think time apart', () => {
    const lines = [...generateTraffic(suite, { ...options, shape: 'bursty', seed: 7 })];
    const byConversation = new Map<string, string[]>();
    for (const l of lines) if (l.conversation) byConversation.set(l.conversation, [...(byConversation.get(l.conversation) ?? []), l.prompt]);
    expect(byConversation.size).toBeGreaterThan(10);
    for (const turns of byConversation.values()) expect(turns).toEqual(['turn 1', 'turn 2', 'turn 3'].slice(0, turns.length));
    expect(lines.every((l) => l.at < 3600)).toBe(true);
  });
});
