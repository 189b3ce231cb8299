import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caseId, formatItemId, withCycle } from '../plan/item-id.js';
import type { PlanUnit, Shard } from '../plan/types.js';
import { arrivalSchedule, type LoadProfile, type ScheduledStart } from './arrivals.js';
import { segmentRequests, segmentSchedule, segmentSize, unitsByStart } from './segment.js';

/** A plan of `size` units; unit u is a thread of (u % 3) + 1 turns when `threads`, else a case. */
function planOf(size: number, threads = false): { units(): IterableIterator<PlanUnit> } {
  const unit = (u: number): PlanUnit => {
    const request = { id: caseId(`c${u}`, 'm', 1), case_id: `c${u}`, thread_id: null, turn: null, model: 'm', request_model: null, repeat: 1, prompt: 'q', options: {}, checks: [] };
    if (!threads) return { kind: 'case', index: u, request };
    return { kind: 'thread', index: u, key: caseId(`t${u}`, 'm', 1), thread_id: `t${u}`, model: 'm', repeat: 1, turns: Array.from({ length: (u % 3) + 1 }, () => request) };
  };
  return { units: () => Array.from({ length: size }, (_, u) => unit(u)).values() };
}

const shards = (count: number): Shard[] => Array.from({ length: count }, (_, i) => ({ index: i + 1, count }));
const idOf = (d: { unit: PlanUnit; cycle: number }): string => formatItemId(withCycle(d.unit.kind === 'case' ? d.unit.request.id : d.unit.key, d.cycle));

/** A schedule of the given starts (index k at offsets[k]), as arrivals.ts yields one. */
const scheduleOf = (offsets: number[]): Iterator<ScheduledStart> => offsets.map((atMs, index) => ({ index, atMs })).values();

describe('segmentSchedule', () => {
  it('splits an arrival schedule into N interleaved segments whose union is the schedule, each start once', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 1, max: 7 }), (rate, durationMs, count) => {
        const profile: LoadProfile = { kind: 'constant', ratePerS: rate, durationMs };
        const whole = [...segmentSchedule(arrivalSchedule(profile, { arrival: 'constant' }), null)];
        const parts = shards(count).map((s) => [...segmentSchedule(arrivalSchedule(profile, { arrival: 'constant' }), s)]);
        const union = parts.flat().sort((a, b) => a.index - b.index);
        expect(union).toEqual(whole);
        parts.forEach((part, i) => {
          expect(part.length).toBe(segmentSize(whole.length, shards(count)[i]!));
          // No burst: a segment's starts are exactly N global intervals apart.
          for (let j = 1; j < part.length; j += 1) expect(part[j]!.atMs - part[j - 1]!.atMs).toBeCloseTo((count * 1000) / rate, 9);
        });
      }),
    );
  });

  it('keeps the offsets of any schedule (a ramp, Poisson) and takes index mod N = i − 1', () => {
    const offsets = [0, 5, 7, 30, 31, 90, 91, 92];
    expect([...segmentSchedule(scheduleOf(offsets), { index: 2, count: 3 })]).toEqual([{ index: 1, atMs: 5 }, { index: 4, atMs: 31 }, { index: 7, atMs: 92 }]);
  });

  it('splits seeded Poisson arrivals the same way: the segments together are the one schedule', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 1000 }), (rate, count, seed) => {
        const profile: LoadProfile = { kind: 'constant', ratePerS: rate, durationMs: 2000 };
        const whole = [...arrivalSchedule(profile, { arrival: 'poisson', seed })];
        const parts = shards(count).flatMap((s) => [...segmentSchedule(arrivalSchedule(profile, { arrival: 'poisson', seed }), s)]);
        expect(parts.sort((a, b) => a.index - b.index)).toEqual(whole);
      }),
    );
  });
});

describe('unitsByStart', () => {
  it('draws unit k mod U in pass floor(k / U) + 1, so the segments together send one run\'s item ids', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 1, max: 5 }), (size, total, count) => {
        const offsets = Array.from({ length: total }, (_, k) => k);
        const drawAll = (segment: Shard | null): string[] => {
          const draw = unitsByStart(planOf(size));
          return [...segmentSchedule(scheduleOf(offsets), segment)].map((s) => idOf(draw(s.index)!));
        };
        const whole = drawAll(null);
        expect(whole).toEqual(offsets.map((k) => formatItemId(caseId(`c${k % size}`, 'm', 1, Math.floor(k / size) + 1))));
        expect(shards(count).flatMap((s) => drawAll(s)).sort()).toEqual([...whole].sort());
      }),
    );
  });

  it('returns null for an empty plan', () => {
    expect(unitsByStart(planOf(0))(0)).toBeNull();
  });
});

describe('segmentRequests', () => {
  it('counts the requests a segment sends, threads with all their turns', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 50 }), fc.integer({ min: 1, max: 4 }), (size, total, count) => {
        const source = planOf(size, true);
        const requests = (u: PlanUnit): number => (u.kind === 'case' ? 1 : u.turns.length);
        let all = 0;
        for (const s of shards(count)) {
          const draw = unitsByStart(source);
          const direct = [...segmentSchedule(scheduleOf(Array.from({ length: total }, (_, k) => k)), s)].reduce((sum, st) => sum + requests(draw(st.index)!.unit), 0);
          expect(segmentRequests(source.units(), size, requests, total, s)).toBe(direct);
          all += direct;
        }
        expect(segmentRequests(source.units(), size, requests, total, null)).toBe(all);
      }),
    );
  });
});
