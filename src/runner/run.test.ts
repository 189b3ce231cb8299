// The runner against a scripted ChatClient port on a fake clock: its schedules, waits and timers take
// no real time, and what they do is the same every run (the wire itself is covered by the e2e tests).
import { describe, expect, it } from 'vitest';
import { RateLimitedError, ServerError } from '../domain/errors.js';
import type { Sample } from '../domain/sample.js';
import type { ChatClient } from '../domain/client.js';
import { caseId, threadKey, turnId } from '../plan/item-id.js';
import type { PlanRequest as RequestSpec, PlanUnit as RunUnit } from '../plan/types.js';
import { FakeClock } from '../test-support/fake-clock.js';
import { failingFirst, scriptedAnswer, scriptedClient } from '../test-support/scripted-client.js';
import { startRun, type RunHandle } from './run.js';
import type { RunEvent } from './unit.js';
import type { Loop } from './loop/executor.js';
import { arrivalSchedule } from './arrivals.js';
// The load kinds' loops, as a run's kind modules make them (src/load/kinds/).
import { arrivalsLoop } from '../load/kinds/arrivals/executor.js';
import { rampingWorkersLoop } from '../load/kinds/ramping-workers/executor.js';

const source = (units: RunUnit[]) => ({ units: () => units.values() });

const constantOpen = (ratePerS: number, durationMs: number, maxInFlight: number) => ({
  schedule: arrivalSchedule({ kind: 'constant', ratePerS, durationMs }, { arrival: 'constant' }), durationMs, maxInFlight,
});

/** Reads a run's events to its end on the fake clock, which moves only when nothing else is left to do. */
async function drain(handle: RunHandle, clock: FakeClock, onEvent: (event: RunEvent) => void = () => undefined): Promise<void> {
  await clock.run((async () => {
    for await (const e of handle.events) onEvent(e);
  })());
}

const spec = (id: string, extra: Partial<RequestSpec> = {}): RequestSpec => ({
  id: caseId(id, 'm', 1), case_id: id, thread_id: null, turn: null, model: 'm', request_model: 'm', repeat: 1, prompt: id, options: {}, checks: [], ...extra,
});

function thread(id: string, turns: number): RunUnit {
  return {
    kind: 'thread', index: 0,
    key: threadKey(id, 'm', 1), thread_id: id, model: 'm', repeat: 1,
    turns: Array.from({ length: turns }, (_, i) => spec(id, { id: turnId(id, i + 1, 'm', 1), case_id: null, thread_id: id, turn: i + 1, prompt: `${id}-${i + 1}` })),
  };
}

async function collect(units: RunUnit[], client: ChatClient, clock: FakeClock, extra: Partial<Parameters<typeof startRun>[1]> = {}) {
  const handle = startRun(source(units), {
    client, target: { boardId: 'b', chatId: 'c' }, concurrency: 4, timeoutMs: 1000, retries: 2, clock,
    backoff: { baseMs: 1, capMs: 2 }, check: async () => [], stop: new AbortController().signal, abort: new AbortController().signal, ...extra,
  });
  const samples: Sample[] = [];
  const stops: string[] = [];
  await drain(handle, clock, (e) => {
    if (e.type === 'sample') samples.push(e.sample);
    if (e.type === 'stopped') stops.push(e.reason);
  });
  return { samples, stops, ledger: handle.ledger };
}

describe('startRun', () => {
  it('keeps each thread in order in its own conversation while threads run concurrently', async () => {
    const clock = new FakeClock();
    // Answers take 1–5 ms on the clock, so the threads' turns interleave.
    const client = scriptedClient(async (req, n) => {
      await clock.sleep((n * 7) % 5 + 1);
      return scriptedAnswer(`re ${req.prompt}`, clock.now());
    });
    const { samples } = await collect([thread('a', 4), thread('b', 4), thread('c', 4)], client, clock);
    expect(samples).toHaveLength(12);
    expect(samples.slice(0, 3).map((s) => s.thread_id)).not.toEqual(['a', 'a', 'a']);
    for (const id of ['a', 'b', 'c']) {
      const turns = samples.filter((s) => s.thread_id === id);
      expect(turns.map((s) => s.turn)).toEqual([1, 2, 3, 4]);
      expect(new Set(turns.map((s) => s.conversation_id)).size).toBe(1);
    }
  });

  it('closed loop: a start and a settled event per unit (a thread is one start)', async () => {
    const clock = new FakeClock();
    const client = scriptedClient(async () => scriptedAnswer('x', clock.now()));
    const handle = startRun(source([thread('a', 3), { kind: 'case', index: 0, request: spec('q') }]), {
      client, target: { boardId: 'b', chatId: 'c' }, concurrency: 2, timeoutMs: 1000, retries: 0, clock,
      check: async () => [], stop: new AbortController().signal, abort: new AbortController().signal,
    });
    const types: string[] = [];
    await drain(handle, clock, (e) => types.push(e.type));
    expect(types.filter((t) => t === 'start')).toHaveLength(2);
    expect(types.filter((t) => t === 'settled')).toHaveLength(2);
    expect(types.filter((t) => t === 'sample')).toHaveLength(4);
  });

  it('retries 429 and 5xx through the client\'s retry layer, waits on the clock, and records the attempts', async () => {
    const clock = new FakeClock();
    const client = scriptedClient(failingFirst([new RateLimitedError('slow down', 429, null, 1), new ServerError('boom', 503, null)], clock));
    const { samples } = await collect([{ kind: 'case', index: 0, request: spec('q') }], client, clock);
    expect(samples[0]).toMatchObject({ outcome: 'ok', attempts: 3, text: 'fine', pass: true });
    expect(clock.slept).toHaveLength(2);
    expect(clock.slept[0]).toBeGreaterThanOrEqual(1); // Retry-After is a floor
  });

  it('a request that used its retries up is recorded with every attempt it made', async () => {
    const clock = new FakeClock();
    const client = scriptedClient(async () => {
      throw new ServerError('down', 500, null);
    });
    const { samples } = await collect([{ kind: 'case', index: 0, request: spec('q') }], client, clock);
    expect(samples[0]).toMatchObject({ outcome: 'http_error', attempts: 3 });
    const once = await collect([{ kind: 'case', index: 0, request: spec('q') }], client, new FakeClock(), { retries: 0 });
    expect(once.samples[0]).toMatchObject({ outcome: 'http_error', attempts: 1 });
  });

  it('records a failed turn and skips the rest of its thread with the reason', async () => {
    const clock = new FakeClock();
    const client = scriptedClient(async (req) => {
      if (req.prompt === 'a-2') throw new ServerError('down', 500, null);
      return scriptedAnswer('ok', clock.now());
    });
    const { samples } = await collect([thread('a', 4)], client, clock, { retries: 0 });
    expect(samples.map((s) => s.outcome)).toEqual(['ok', 'http_error', 'skipped', 'skipped']);
    expect(samples[2]!.error?.message).toContain('turn 2 failed');
  });

  it('stops starting requests before the budget could be passed', async () => {
    const clock = new FakeClock();
    const client = scriptedClient(async () => scriptedAnswer('x', clock.now(), 1));
    const units = Array.from({ length: 20 }, (_, i): RunUnit => ({ kind: 'case', index: 0, request: spec(`q${i}`) }));
    const { samples, stops, ledger } = await collect(units, client, clock, { budget: { maxCredits: 5 } });
    expect(stops).toEqual(['budget-exhausted']);
    expect(ledger.spent).toBeLessThanOrEqual(5);
    expect(samples.length).toBeGreaterThan(0);
    expect(samples.length).toBeLessThan(20);
  });

  it('starts nothing new after the stop signal, and finishes what was in flight', async () => {
    const clock = new FakeClock();
    const stop = new AbortController();
    const client = scriptedClient(async () => {
      stop.abort();
      await clock.sleep(5);
      return scriptedAnswer('x', clock.now());
    });
    const units = Array.from({ length: 10 }, (_, i): RunUnit => ({ kind: 'case', index: 0, request: spec(`q${i}`) }));
    const { samples, stops } = await collect(units, client, clock, { concurrency: 2, stop: stop.signal });
    expect(stops).toEqual(['interrupted']);
    expect(samples.length).toBeLessThanOrEqual(2);
    expect(samples.every((s) => s.outcome === 'ok')).toBe(true);
  });

  it('open loop: starts at the set rate, records lateness, drops what is still waiting at the end', async () => {
    const clock = new FakeClock();
    // 50/s for 200 ms: a start every 20 ms; answers take 120 ms and two may be in flight.
    const client = scriptedClient(async () => {
      await clock.sleep(120);
      return scriptedAnswer('x', clock.now(), 0.5, 120);
    });
    const units = [{ kind: 'case', index: 0, request: spec('q') } as RunUnit];
    const handle = startRun(source(units), {
      client, target: { boardId: 'b', chatId: 'c' }, concurrency: 1, load: arrivalsLoop(constantOpen(50, 200, 2)), clock,
      timeoutMs: 1000, retries: 0, check: async () => [], stop: new AbortController().signal, abort: new AbortController().signal,
    });
    const samples: Sample[] = [];
    let dropped = 0;
    const intended: (number | null)[] = [];
    const startsAt: number[] = [];
    let settled = 0;
    await drain(handle, clock, (e) => {
      if (e.type === 'sample') samples.push(e.sample);
      if (e.type === 'dropped') dropped += e.count;
      if (e.type === 'start') {
        intended.push(e.intended_at_ms);
        startsAt.push(e.at_ms - handle.runStartMs);
      }
      if (e.type === 'settled') settled += 1;
    });
    expect(samples.length + dropped).toBe(10);
    // Every start is announced with its schedule, and settles.
    expect(intended).toHaveLength(samples.length);
    expect(settled).toBe(samples.length);
    expect(intended.every((t) => typeof t === 'number')).toBe(true);
    // On the fake clock the schedule is exact: two at once, then one each time an answer frees a
    // slot; the six still held when the 200 ms are over are dropped.
    expect(startsAt).toEqual([0, 20, 120, 140]);
    expect(dropped).toBe(6);
    expect(new Set(samples.map((s) => s.item_id)).size).toBe(samples.length);
    expect(samples.map((s) => s.scheduled_delay_ms)).toEqual([0, 0, 80, 80]);
    // Corrected latency runs from the intended start to the end of the answer: lateness plus latency.
    for (const s of samples) expect(s.corrected_latency_ms).toBeCloseTo(s.latency_ms! + s.scheduled_delay_ms!, 3);
  });

  it('open loop with a segment: shard i of N sends starts k ≡ i − 1 (mod N), the shards together the whole run', async () => {
    const units = Array.from({ length: 3 }, (_, i): RunUnit => ({ kind: 'case', index: i, request: spec(`q${i}`) }));
    const idsOf = async (segment: { index: number; count: number } | null): Promise<string[]> => {
      const clock = new FakeClock();
      const client = scriptedClient(async () => scriptedAnswer('x', clock.now()));
      const handle = startRun(source(units), {
        client, target: { boardId: 'b', chatId: 'c' }, concurrency: 1, load: arrivalsLoop({ ...constantOpen(200, 50, 50), segment }), clock,
        timeoutMs: 1000, retries: 0, check: async () => [], stop: new AbortController().signal, abort: new AbortController().signal,
      });
      const ids: string[] = [];
      await drain(handle, clock, (e) => {
        if (e.type === 'sample') ids.push(e.sample.item_id);
      });
      return ids.sort();
    };
    const whole = await idsOf(null);
    expect(new Set(whole).size).toBe(10); // three passes over 3 units: |c2, |c3, |c4 ids
    const parts = await Promise.all([1, 2].map((index) => idsOf({ index, count: 2 })));
    expect(parts.map((p) => p.length)).toEqual([5, 5]);
    expect(parts.flat().sort()).toEqual(whole);
  });

  it('stops sending when a unit fails unexpectedly: no request goes on unrecorded', async () => {
    const clock = new FakeClock();
    let calls = 0;
    const client = scriptedClient(async (req) => {
      calls += 1;
      if (req.prompt === 'q1') throw new TypeError('a bug');
      await clock.sleep(5);
      return scriptedAnswer('x', clock.now());
    });
    const units = Array.from({ length: 20 }, (_, i): RunUnit => ({ kind: 'case', index: 0, request: spec(`q${i}`) }));
    await expect(collect(units, client, clock, { concurrency: 2 })).rejects.toThrow('a bug');
    await clock.advance(50);
    expect(calls).toBeLessThanOrEqual(3);
  });

  it('open loop with judges: the budget counts what judges spend before admitting more', async () => {
    const clock = new FakeClock();
    const client = scriptedClient(async () => {
      await clock.sleep(20);
      return scriptedAnswer('x', clock.now(), 0.1);
    });
    const units = [{ kind: 'case', index: 0, request: spec('q', { checks: [{ type: 'contains', value: 'x' }] }) } as RunUnit];
    const handle = startRun(source(units), {
      client, target: { boardId: 'b', chatId: 'c' }, concurrency: 1, load: arrivalsLoop(constantOpen(50, 600, 50)), clock,
      timeoutMs: 1000, retries: 0, budget: { maxCredits: 5 },
      check: async () => {
        await clock.sleep(30);
        return [{ type: 'judge', pass: true, detail: 'ok', credits_used: 3 }];
      },
      stop: new AbortController().signal, abort: new AbortController().signal,
    });
    await drain(handle, clock);
    expect(handle.ledger.spent).toBeLessThanOrEqual(5);
    expect(handle.ledger.spent).toBeGreaterThan(0);
  });

  it('closed loop with concurrency stages: workers follow the ramp, never above its target, and stop when it ends', async () => {
    const clock = new FakeClock();
    let active = 0;
    let peak = 0;
    const client = scriptedClient(async () => {
      active += 1;
      peak = Math.max(peak, active);
      await clock.sleep(15);
      active -= 1;
      return scriptedAnswer('x', clock.now());
    });
    const units = Array.from({ length: 3 }, (_, i): RunUnit => ({ kind: 'case', index: i, request: spec(`q${i}`) }));
    const handle = startRun(source(units), {
      client, target: { boardId: 'b', chatId: 'c' }, concurrency: 1, clock,
      load: rampingWorkersLoop({ kind: 'stages', startRatePerS: 0, stages: [{ durationMs: 300, targetPerS: 4 }, { durationMs: 200, targetPerS: 4 }] }),
      timeoutMs: 1000, retries: 0, check: async () => [], stop: new AbortController().signal, abort: new AbortController().signal,
    });
    let starts = 0;
    let settled = 0;
    const samples: Sample[] = [];
    await drain(handle, clock, (e) => {
      if (e.type === 'start') starts += 1;
      if (e.type === 'settled') settled += 1;
      if (e.type === 'sample') samples.push(e.sample);
    });
    expect(peak).toBe(4);
    expect(starts).toBe(settled);
    expect(samples.length).toBe(starts);
    // More than one pass through the plan: starts cycle, each pass with its own item ids.
    expect(samples.length).toBeGreaterThan(units.length);
    expect(new Set(samples.map((s) => s.item_id)).size).toBe(samples.length);
  });

  it('think time: a thread pauses between its turns, not before the first (fake clock: no real wait)', async () => {
    // Time moves only when the runner sleeps: each gap is exactly the think time it drew.
    const clock = new FakeClock();
    const client = scriptedClient(async () => scriptedAnswer('x', clock.now(), 0.5, 0));
    const unit = { ...thread('t', 3), think_time: { min_ms: 60, max_ms: 80 } } as RunUnit;
    const samples = (await collect([unit], client, clock)).samples.filter((s) => s.endpoint !== 'create');
    expect(samples.map((s) => s.turn)).toEqual([1, 2, 3]);
    expect(clock.slept).toHaveLength(2);
    for (let i = 1; i < samples.length; i += 1) {
      const gap = samples[i]!.offset_ms - (samples[i - 1]!.offset_ms + (samples[i - 1]!.latency_ms ?? 0));
      expect(gap).toBeCloseTo(clock.slept[i - 1]!, 2); // offsets are kept to the microsecond
      expect(gap).toBeGreaterThanOrEqual(60);
      expect(gap).toBeLessThanOrEqual(80);
    }
  });

  it('a loop that names its drops: the given-up starts by item id, told to its executor; a clock that goes on from clockStartMs', async () => {
    const clock = new FakeClock();
    const client = scriptedClient(async () => {
      await clock.sleep(2000);
      return scriptedAnswer('x', clock.now(), 0.5, 2000);
    });
    const told: number[] = [];
    const asked: number[] = [];
    let next = 0;
    // Three starts due at 5 s on the log's clock (the run's clock starts there), one in flight: two held past a second are dropped.
    const loop: Loop = {
      kind: 'test',
      executor: () => ({
        cycles: true, timeBound: true, namesDrops: true, maxInFlight: () => 1,
        next: (state) => {
          asked.push(state.elapsedMs);
          if (next < 3) return { kind: 'start', intendedAtMs: 5000 + next * 10, index: next, unit: { kind: 'case', index: next, request: spec(`q${next++}`) } };
          return state.inFlight > 0 ? { kind: 'wait', untilMs: null } : { kind: 'done' };
        },
        dropped: (units) => told.push(...units.map((u) => u.index)),
      }),
    };
    const handle = startRun(source([]), {
      client, target: { boardId: 'b', chatId: 'c' }, concurrency: 1, load: loop, clock, clockStartMs: 5000,
      timeoutMs: 10_000, retries: 0, check: async () => [], stop: new AbortController().signal, abort: new AbortController().signal,
    });
    expect(handle.openedAtMs - handle.runStartMs).toBe(5000);
    const drops: RunEvent[] = [];
    const samples: Sample[] = [];
    await drain(handle, clock, (e) => {
      if (e.type === 'dropped') drops.push(e);
      if (e.type === 'sample') samples.push(e.sample);
    });
    expect(asked[0]).toBe(5000);
    expect(drops).toEqual([{ type: 'dropped', count: 2, items: ['case:q1|model:m|r1', 'case:q2|model:m|r1'] }]);
    expect(told).toEqual([1, 2]);
    expect(samples.map((s) => [s.item_id, s.offset_ms, s.scheduled_delay_ms])).toEqual([['case:q0|model:m|r1', 5000, 0]]);
  });

  it('a hung service: starts held past the cap stay within a second of the schedule, the rest dropped; the one in flight is cut and recorded interrupted', async () => {
    const clock = new FakeClock();
    const client = scriptedClient((req) => new Promise((_resolve, reject) => {
      req.signal?.addEventListener('abort', () => reject(new (class extends Error {})('aborted')), { once: true });
    }));
    const units = [{ kind: 'case', index: 0, request: spec('q') } as RunUnit];
    const handle = startRun(source(units), {
      client, target: { boardId: 'b', chatId: 'c' }, concurrency: 1, load: arrivalsLoop(constantOpen(200, 1500, 1)), gracefulStopMs: 50, clock,
      timeoutMs: 0, retries: 0, check: async () => [], stop: new AbortController().signal, abort: new AbortController().signal,
    });
    let dropped = 0;
    let heldMax = 0;
    const samples: Sample[] = [];
    await drain(handle, clock, (e) => {
      if (e.type === 'dropped') dropped += e.count;
      if (e.type === 'held') heldMax = Math.max(heldMax, e.count);
      if (e.type === 'sample') samples.push(e.sample);
    });
    expect(samples.map((s) => s.outcome)).toEqual(['interrupted']);
    expect(samples[0]!.error?.code).toBe('E_INTERRUPTED');
    // Cut at the end of the graceful stop: outstanding from its start to 1.5 s + 50 ms, on the clock.
    expect(samples[0]!.latency_ms ?? samples[0]!.corrected_latency_ms).toBeCloseTo(1550, 0);
    expect(samples.length + dropped).toBe(300);
    // Memory follows a second of the schedule (200 starts), not the 299 the service never took.
    expect(heldMax).toBeLessThanOrEqual(201);
  });
});
