// The runner against a scripted ChatClient port (the wire itself is covered by the e2e tests).
import { describe, expect, it } from 'vitest';
import type { AnswerResult } from '../domain/answer.js';
import type { AskRequest, ChatClient, ContinueRequest } from '../domain/client.js';
import { RateLimitedError, ServerError } from '../domain/errors.js';
import type { Sample } from '../domain/sample.js';
import { sleep, type Clock } from './clock.js';
import { caseId, threadKey, turnId } from '../plan/item-id.js';
import type { PlanRequest as RequestSpec, PlanUnit as RunUnit } from '../plan/types.js';

const source = (units: RunUnit[]) => ({ units: () => units.values() });
import { startRun } from './run.js';
import { arrivalSchedule } from './arrivals.js';

const constantOpen = (ratePerS: number, durationMs: number, maxInFlight: number) => ({
  schedule: arrivalSchedule({ kind: 'constant', ratePerS, durationMs }, { arrival: 'constant' }), durationMs, maxInFlight,
});

function answer(text: string, credits = 0.5): AnswerResult {
  const t = performance.now();
  return {
    status: 200, text, streamed: true, dialect: 'ui-sse', creditsUsed: credits, creditsRemaining: 100,
    finished: true, chunks: [{ text, atMs: t }],
    marks: { sentAt: t - 5, headersAt: t - 4, firstChunkAt: t - 3, lastChunkAt: t - 2, finishAt: t - 1, usageAt: t, endAt: t },
  };
}

type Script = (req: AskRequest | ContinueRequest, n: number) => Promise<AnswerResult>;

function scriptedClient(script: Script): ChatClient & { log: string[] } {
  const log: string[] = [];
  let n = 0;
  let conversations = 0;
  const handle = async (req: AskRequest | ContinueRequest) => {
    const id = 'conversationId' in req ? req.conversationId : 'ask';
    log.push(`${id}:${req.prompt}`);
    return script(req, n++);
  };
  return {
    log,
    ask: handle,
    continueConversation: handle,
    createConversation: async (r) => ({ conversationId: `c${++conversations}`, name: r.name ?? 'x', createdAt: '', boardId: r.boardId, chatId: r.chatId }),
    listBoards: async () => [],
    listChats: async () => [],
    close: async () => undefined,
  };
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

async function collect(units: RunUnit[], client: ChatClient, extra: Partial<Parameters<typeof startRun>[1]> = {}) {
  const handle = startRun(source(units), {
    client, target: { boardId: 'b', chatId: 'c' }, concurrency: 4, timeoutMs: 1000, retries: 2,
    backoff: { baseMs: 1, capMs: 2 }, check: async () => [], stop: new AbortController().signal, abort: new AbortController().signal, ...extra,
  });
  const samples: Sample[] = [];
  const stops: string[] = [];
  for await (const e of handle.events) {
    if (e.type === 'sample') samples.push(e.sample);
    if (e.type === 'stopped') stops.push(e.reason);
  }
  return { samples, stops, ledger: handle.ledger };
}

describe('startRun', () => {
  it('keeps each thread in order in its own conversation while threads run concurrently', async () => {
    const client = scriptedClient(async (req) => {
      await sleep(Math.random() * 5);
      return answer(`re ${req.prompt}`);
    });
    const { samples } = await collect([thread('a', 4), thread('b', 4), thread('c', 4)], client);
    expect(samples).toHaveLength(12);
    for (const id of ['a', 'b', 'c']) {
      const turns = samples.filter((s) => s.thread_id === id);
      expect(turns.map((s) => s.turn)).toEqual([1, 2, 3, 4]);
      expect(new Set(turns.map((s) => s.conversation_id)).size).toBe(1);
    }
  });

  it('closed loop: a start and a settled event per unit (a thread is one start)', async () => {
    const client = scriptedClient(async () => answer('x'));
    const handle = startRun(source([thread('a', 3), { kind: 'case', index: 0, request: spec('q') }]), {
      client, target: { boardId: 'b', chatId: 'c' }, concurrency: 2, timeoutMs: 1000, retries: 0,
      check: async () => [], stop: new AbortController().signal, abort: new AbortController().signal,
    });
    const types: string[] = [];
    for await (const e of handle.events) types.push(e.type);
    expect(types.filter((t) => t === 'start')).toHaveLength(2);
    expect(types.filter((t) => t === 'settled')).toHaveLength(2);
    expect(types.filter((t) => t === 'sample')).toHaveLength(4);
  });

  it('retries 429 and 5xx and records the attempts', async () => {
    const client = scriptedClient(async (_req, n) => {
      if (n === 0) throw new RateLimitedError('slow down', 429, null, 1);
      if (n === 1) throw new ServerError('boom', 503, null);
      return answer('fine');
    });
    const { samples } = await collect([{ kind: 'case', index: 0, request: spec('q') }], client);
    expect(samples[0]).toMatchObject({ outcome: 'ok', attempts: 3, text: 'fine', pass: true });
  });

  it('records a failed turn and skips the rest of its thread with the reason', async () => {
    const client = scriptedClient(async (req) => {
      if (req.prompt === 'a-2') throw new ServerError('down', 500, null);
      return answer('ok');
    });
    const { samples } = await collect([thread('a', 4)], client, { retries: 0 });
    expect(samples.map((s) => s.outcome)).toEqual(['ok', 'http_error', 'skipped', 'skipped']);
    expect(samples[2]!.error?.message).toContain('turn 2 failed');
  });

  it('stops starting requests before the budget could be passed', async () => {
    const client = scriptedClient(async () => answer('x', 1));
    const units = Array.from({ length: 20 }, (_, i): RunUnit => ({ kind: 'case', index: 0, request: spec(`q${i}`) }));
    const { samples, stops, ledger } = await collect(units, client, { budget: { maxCredits: 5 } });
    expect(stops).toEqual(['budget-exhausted']);
    expect(ledger.spent).toBeLessThanOrEqual(5);
    expect(samples.length).toBeGreaterThan(0);
    expect(samples.length).toBeLessThan(20);
  });

  it('starts nothing new after the stop signal, and finishes what was in flight', async () => {
    const stop = new AbortController();
    const client = scriptedClient(async () => {
      stop.abort();
      await sleep(5);
      return answer('x');
    });
    const units = Array.from({ length: 10 }, (_, i): RunUnit => ({ kind: 'case', index: 0, request: spec(`q${i}`) }));
    const { samples, stops } = await collect(units, client, { concurrency: 2, stop: stop.signal });
    expect(stops).toEqual(['interrupted']);
    expect(samples.length).toBeLessThanOrEqual(2);
    expect(samples.every((s) => s.outcome === 'ok')).toBe(true);
  });

  it('open loop: starts at the set rate, records lateness, drops what is still waiting at the end', async () => {
    const client = scriptedClient(async () => {
      await sleep(120);
      return answer('x');
    });
    const units = [{ kind: 'case', index: 0, request: spec('q') } as RunUnit];
    const handle = startRun(source(units), {
      client, target: { boardId: 'b', chatId: 'c' }, concurrency: 1, load: { kind: 'arrivals', ...constantOpen(50, 200, 2) },
      timeoutMs: 1000, retries: 0, check: async () => [], stop: new AbortController().signal, abort: new AbortController().signal,
    });
    const samples: Sample[] = [];
    let dropped = 0;
    const intended: (number | null)[] = [];
    let settled = 0;
    for await (const e of handle.events) {
      if (e.type === 'sample') samples.push(e.sample);
      if (e.type === 'dropped') dropped += e.count;
      if (e.type === 'start') intended.push(e.intended_at_ms);
      if (e.type === 'settled') settled += 1;
    }
    expect(samples.length + dropped).toBe(10);
    // Every start is announced with its schedule, and settles.
    expect(intended).toHaveLength(samples.length);
    expect(settled).toBe(samples.length);
    expect(intended.every((t) => typeof t === 'number')).toBe(true);
    expect(samples.length).toBeGreaterThanOrEqual(2);
    expect(new Set(samples.map((s) => s.item_id)).size).toBe(samples.length);
    const late = samples.filter((s) => (s.scheduled_delay_ms ?? 0) > 50);
    expect(late.length).toBeGreaterThan(0);
    // Corrected latency runs from the intended start to the end of the answer: at least lateness plus latency.
    for (const s of late) expect(s.corrected_latency_ms!).toBeGreaterThanOrEqual(s.latency_ms! + s.scheduled_delay_ms! - 0.01);
  });

  it('open loop with a segment: shard i of N sends starts k ≡ i − 1 (mod N), the shards together the whole run', async () => {
    const client = scriptedClient(async () => answer('x'));
    const units = Array.from({ length: 3 }, (_, i): RunUnit => ({ kind: 'case', index: i, request: spec(`q${i}`) }));
    const idsOf = async (segment: { index: number; count: number } | null): Promise<string[]> => {
      const handle = startRun(source(units), {
        client, target: { boardId: 'b', chatId: 'c' }, concurrency: 1, load: { kind: 'arrivals', ...constantOpen(200, 50, 50), segment },
        timeoutMs: 1000, retries: 0, check: async () => [], stop: new AbortController().signal, abort: new AbortController().signal,
      });
      const ids: string[] = [];
      for await (const e of handle.events) if (e.type === 'sample') ids.push(e.sample.item_id);
      return ids.sort();
    };
    const whole = await idsOf(null);
    expect(new Set(whole).size).toBe(10); // three passes over 3 units: |c2, |c3, |c4 ids
    const parts = await Promise.all([1, 2].map((index) => idsOf({ index, count: 2 })));
    expect(parts.map((p) => p.length)).toEqual([5, 5]);
    expect(parts.flat().sort()).toEqual(whole);
  });

  it('stops sending when a unit fails unexpectedly: no request goes on unrecorded', async () => {
    let calls = 0;
    const client = scriptedClient(async (req) => {
      calls += 1;
      if (req.prompt === 'q1') throw new TypeError('a bug');
      await sleep(5);
      return answer('x');
    });
    const units = Array.from({ length: 20 }, (_, i): RunUnit => ({ kind: 'case', index: 0, request: spec(`q${i}`) }));
    await expect(collect(units, client, { concurrency: 2 })).rejects.toThrow('a bug');
    await sleep(50);
    expect(calls).toBeLessThanOrEqual(3);
  });

  it('open loop with judges: the budget counts what judges spend before admitting more', async () => {
    const client = scriptedClient(async () => {
      await sleep(20);
      return answer('x', 0.1);
    });
    const units = [{ kind: 'case', index: 0, request: spec('q', { checks: [{ type: 'contains', value: 'x' }] }) } as RunUnit];
    const handle = startRun(source(units), {
      client, target: { boardId: 'b', chatId: 'c' }, concurrency: 1, load: { kind: 'arrivals', ...constantOpen(50, 600, 50) },
      timeoutMs: 1000, retries: 0, budget: { maxCredits: 5 },
      check: async () => {
        await sleep(30);
        return [{ type: 'judge', pass: true, detail: 'ok', credits_used: 3 }];
      },
      stop: new AbortController().signal, abort: new AbortController().signal,
    });
    for await (const _ of handle.events) void _;
    expect(handle.ledger.spent).toBeLessThanOrEqual(5);
    expect(handle.ledger.spent).toBeGreaterThan(0);
  });

  it('closed loop with concurrency stages: workers follow the ramp, never above its target, and stop when it ends', async () => {
    let active = 0;
    let peak = 0;
    const client = scriptedClient(async () => {
      active += 1;
      peak = Math.max(peak, active);
      await sleep(15);
      active -= 1;
      return answer('x');
    });
    const units = Array.from({ length: 3 }, (_, i): RunUnit => ({ kind: 'case', index: i, request: spec(`q${i}`) }));
    const handle = startRun(source(units), {
      client, target: { boardId: 'b', chatId: 'c' }, concurrency: 1,
      load: { kind: 'ramping-workers', profile: { kind: 'stages', startRatePerS: 0, stages: [{ durationMs: 300, targetPerS: 4 }, { durationMs: 200, targetPerS: 4 }] } },
      timeoutMs: 1000, retries: 0, check: async () => [], stop: new AbortController().signal, abort: new AbortController().signal,
    });
    let starts = 0;
    let settled = 0;
    const samples: Sample[] = [];
    for await (const e of handle.events) {
      if (e.type === 'start') starts += 1;
      if (e.type === 'settled') settled += 1;
      if (e.type === 'sample') samples.push(e.sample);
    }
    expect(peak).toBeLessThanOrEqual(4);
    expect(peak).toBeGreaterThanOrEqual(2);
    expect(starts).toBe(settled);
    expect(samples.length).toBe(starts);
    // More than one pass through the plan: starts cycle, each pass with its own item ids.
    expect(samples.length).toBeGreaterThan(units.length);
    expect(new Set(samples.map((s) => s.item_id)).size).toBe(samples.length);
  });

  it('think time: a thread pauses between its turns, not before the first (fake clock: no real wait)', async () => {
    // Time moves only when the runner sleeps: each gap is exactly the think time it drew.
    let nowMs = 1000;
    const slept: number[] = [];
    const clock: Clock = { now: () => nowMs, sleep: async (ms) => { slept.push(ms); nowMs += ms; return true; } };
    const instant = (text: string): AnswerResult => ({ ...answer(text), marks: { sentAt: nowMs, headersAt: nowMs, firstChunkAt: nowMs, lastChunkAt: nowMs, finishAt: nowMs, usageAt: nowMs, endAt: nowMs } });
    const client = scriptedClient(async () => instant('x'));
    const unit = { ...thread('t', 3), think_time: { min_ms: 60, max_ms: 80 } } as RunUnit;
    const samples = (await collect([unit], client, { clock })).samples.filter((s) => s.endpoint !== 'create');
    expect(samples.map((s) => s.turn)).toEqual([1, 2, 3]);
    expect(slept).toHaveLength(2);
    for (let i = 1; i < samples.length; i += 1) {
      const gap = samples[i]!.offset_ms - (samples[i - 1]!.offset_ms + (samples[i - 1]!.latency_ms ?? 0));
      expect(gap).toBeCloseTo(slept[i - 1]!, 2); // offsets are kept to the microsecond
      expect(gap).toBeGreaterThanOrEqual(60);
      expect(gap).toBeLessThanOrEqual(80);
    }
  });

  it('a hung service: starts held past the cap stay within a second of the schedule, the rest dropped; the one in flight is cut and recorded interrupted', async () => {
    const client = scriptedClient((req) => new Promise((_resolve, reject) => {
      req.signal?.addEventListener('abort', () => reject(new (class extends Error {})('aborted')), { once: true });
    }));
    const units = [{ kind: 'case', index: 0, request: spec('q') } as RunUnit];
    const handle = startRun(source(units), {
      client, target: { boardId: 'b', chatId: 'c' }, concurrency: 1, load: { kind: 'arrivals', ...constantOpen(200, 1500, 1) }, gracefulStopMs: 50,
      timeoutMs: 0, retries: 0, check: async () => [], stop: new AbortController().signal, abort: new AbortController().signal,
    });
    let dropped = 0;
    let heldMax = 0;
    const samples: Sample[] = [];
    for await (const e of handle.events) {
      if (e.type === 'dropped') dropped += e.count;
      if (e.type === 'held') heldMax = Math.max(heldMax, e.count);
      if (e.type === 'sample') samples.push(e.sample);
    }
    expect(samples.map((s) => s.outcome)).toEqual(['interrupted']);
    expect(samples[0]!.error?.code).toBe('E_INTERRUPTED');
    expect(samples.length + dropped).toBe(300);
    // Memory follows a second of the schedule (200 starts), not the 299 the service never took.
    expect(heldMax).toBeLessThanOrEqual(210);
  });
});
