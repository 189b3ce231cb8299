import { describe, expect, it } from 'vitest';
import { arrivalSchedule, parseStages, plannedStarts, stageWindows, targetRateAt, windowStarts, type LoadProfile } from './arrivals.js';

const ramp: LoadProfile = { kind: 'stages', startRatePerS: 0, stages: [{ durationMs: 30_000, targetPerS: 5 }, { durationMs: 60_000, targetPerS: 20 }, { durationMs: 30_000, targetPerS: 0 }] };
const parseDuration = (v: string): number => Number(v.replace(/m$/, '')) * (v.endsWith('m') ? 60_000 : 1000) || Number(v.replace(/s$/, '')) * 1000;

describe('load profiles', () => {
  it('stage windows ramp from the previous target', () => {
    expect(stageWindows(ramp)).toEqual([
      { index: 0, from_rate: 0, to_rate: 5, start_ms: 0, end_ms: 30_000 },
      { index: 1, from_rate: 5, to_rate: 20, start_ms: 30_000, end_ms: 90_000 },
      { index: 2, from_rate: 20, to_rate: 0, start_ms: 90_000, end_ms: 120_000 },
    ]);
    expect(targetRateAt(ramp, 15_000)).toBeCloseTo(2.5);
    expect(targetRateAt(ramp, 60_000)).toBeCloseTo(12.5);
    expect(targetRateAt(ramp, 120_000)).toBe(0);
    expect(plannedStarts(ramp)).toBe(75 + 750 + 300);
  });

  it('the constant case keeps the evenly spaced starts of --rate N --duration D', () => {
    const starts = [...arrivalSchedule({ kind: 'constant', ratePerS: 3, durationMs: 1500 }, { arrival: 'constant' })];
    expect(starts.map((s) => s.index)).toEqual([0, 1, 2, 3]);
    starts.forEach((s, i) => expect(s.atMs).toBeCloseTo((i * 1000) / 3));
  });

  it.each(['constant', 'poisson'] as const)('a ramp (%s arrivals) starts what the plan says in every stage', (arrival) => {
    const windows = stageWindows(ramp);
    const counts = windows.map(() => 0);
    let last = -1;
    for (const s of arrivalSchedule(ramp, { arrival, seed: 7 })) {
      expect(s.atMs).toBeGreaterThanOrEqual(last);
      last = s.atMs;
      const w = windows.findIndex((x) => s.atMs >= x.start_ms && s.atMs < x.end_ms);
      counts[w === -1 ? windows.length - 1 : w]! += 1;
    }
    windows.forEach((w, i) => {
      const plan = windowStarts(w);
      // Constant arrivals hit the plan to within one start; Poisson counts vary by √plan (4 SD allowed).
      if (arrival === 'constant') expect(Math.abs(counts[i]! - plan) / plan).toBeLessThan(0.05);
      else expect(Math.abs(counts[i]! - plan)).toBeLessThan(4 * Math.sqrt(plan));
    });
  });

  it('Poisson inter-arrival times are exponential (Kolmogorov–Smirnov at the 1% level) and seeded', () => {
    const profile: LoadProfile = { kind: 'constant', ratePerS: 50, durationMs: 100_000 };
    const times = [...arrivalSchedule(profile, { arrival: 'poisson', seed: 42 })].map((s) => s.atMs);
    const gaps = times.slice(1).map((t, i) => (t - times[i]!) / 1000).sort((a, b) => a - b);
    const n = gaps.length;
    let d = 0;
    gaps.forEach((g, i) => {
      const cdf = 1 - Math.exp(-50 * g);
      d = Math.max(d, Math.abs(cdf - i / n), Math.abs((i + 1) / n - cdf));
    });
    expect(d).toBeLessThan(1.628 / Math.sqrt(n));
    // Not evenly spaced: the coefficient of variation of exponential gaps is 1.
    const mean = gaps.reduce((a, b) => a + b, 0) / n;
    const sd = Math.sqrt(gaps.reduce((a, b) => a + (b - mean) ** 2, 0) / n);
    expect(sd / mean).toBeGreaterThan(0.9);
    const again = [...arrivalSchedule(profile, { arrival: 'poisson', seed: 42 })].map((s) => s.atMs);
    expect(again).toEqual(times);
    const other = [...arrivalSchedule(profile, { arrival: 'poisson', seed: 43 })].map((s) => s.atMs);
    expect(other).not.toEqual(times);
  });

  it('parses --stages and names the flag on a bad one', () => {
    expect(parseStages('30s:5, 1m:20,30s:0', parseDuration)).toEqual([
      { durationMs: 30_000, targetPerS: 5 }, { durationMs: 60_000, targetPerS: 20 }, { durationMs: 30_000, targetPerS: 0 },
    ]);
    expect(() => parseStages('30s', parseDuration)).toThrow(/duration:target/);
    expect(() => parseStages('30s:-1', parseDuration)).toThrow(/duration:target/);
    expect(() => parseStages('', parseDuration)).toThrow(/empty/);
  });
});

describe('step stages (a sweep\'s constant rates)', () => {
  it('a stage with fromPerS holds its own rate, and each step starts what its area plans', () => {
    const steps: LoadProfile = { kind: 'stages', startRatePerS: 0, stages: [{ durationMs: 2000, targetPerS: 3, fromPerS: 3 }, { durationMs: 2000, targetPerS: 6, fromPerS: 6 }] };
    expect(stageWindows(steps).map((w) => [w.from_rate, w.to_rate])).toEqual([[3, 3], [6, 6]]);
    expect(targetRateAt(steps, 1999)).toBe(3);
    expect(targetRateAt(steps, 2000)).toBe(6);
    const starts = [...arrivalSchedule(steps, { arrival: 'constant' })];
    expect(plannedStarts(steps)).toBe(18);
    expect(starts.filter((s) => s.atMs < 2000)).toHaveLength(6);
    expect(starts.filter((s) => s.atMs >= 2000)).toHaveLength(12);
  });
});
