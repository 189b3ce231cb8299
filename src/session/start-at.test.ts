import { describe, expect, it } from 'vitest';
import { InputError } from '../domain/errors.js';
import { parseStartAt, START_AT_TOLERANCE_MS, waitForStartAt, wallClockMs } from './start-at.js';

const NOW = Date.parse('2026-11-23T02:00:00.000Z');

describe('parseStartAt', () => {
  it('reads an ISO instant with its zone', () => {
    expect(parseStartAt('2026-11-23T02:01:00Z', NOW)).toBe(NOW + 60_000);
    expect(parseStartAt('2026-11-23T03:01:00+01:00', NOW)).toBe(NOW + 60_000);
    expect(parseStartAt(' 2026-11-23T02:00:30.250z ', NOW)).toBe(NOW + 30_250);
    expect(parseStartAt('2026-11-23T02:05Z', NOW)).toBe(NOW + 300_000);
  });

  it.each(['tomorrow', '2026-11-23', '2026-11-23T02:01:00', '2026-11-23 02:01:00Z', '2026-13-23T02:01:00Z', '1764000000', ''])(
    'refuses %j: not an instant every machine reads the same',
    (text) => {
      expect(() => parseStartAt(text, NOW)).toThrow(InputError);
      expect(() => parseStartAt(text, NOW)).toThrow(/ISO 8601 instant with a zone/);
    },
  );

  it(`accepts an instant up to ${START_AT_TOLERANCE_MS} ms past, and refuses one further past, naming the flag`, () => {
    expect(parseStartAt('2026-11-23T01:59:59.000Z', NOW)).toBe(NOW - 1000);
    const late = (): number => parseStartAt('2026-11-23T01:59:58.900Z', NOW);
    expect(late).toThrow(/passed 1\.1s ago \(a shard may be at most 1s late\)/);
    try {
      late();
    } catch (error) {
      expect((error as InputError).location.field).toBe('--start-at');
    }
    expect(() => parseStartAt('2026-11-22T02:00:00Z', NOW)).toThrow(/passed 1440 min ago/);
  });

  it('refuses an instant over a day ahead (a wrong date)', () => {
    expect(() => parseStartAt('2026-11-24T02:00:01Z', NOW)).toThrow(/more than a day ahead/);
  });
});

describe('waitForStartAt', () => {
  it('returns once the wall clock has reached the instant', async () => {
    const at = new Date(wallClockMs() + 30).toISOString();
    await waitForStartAt(at);
    expect(wallClockMs()).toBeGreaterThanOrEqual(Date.parse(at));
  });

  it('re-reads the wall clock after each sleep (it may have been stepped meanwhile)', async () => {
    const readings = [NOW, NOW, NOW + 10]; // checked, 1 ms left (a sleep), then past the instant
    let reads = 0;
    await waitForStartAt('2026-11-23T02:00:00.001Z', { wallNowMs: () => readings[Math.min(reads++, readings.length - 1)]! });
    expect(reads).toBe(3);
  });

  it('ends at once on a stop, and throws for an instant already too far past', async () => {
    const stop = new AbortController();
    stop.abort();
    await waitForStartAt(new Date(wallClockMs() + 3_600_000).toISOString(), { signal: stop.signal });
    await expect(waitForStartAt(new Date(wallClockMs() - 5000).toISOString())).rejects.toThrow(InputError);
  });
});
