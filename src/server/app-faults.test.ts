import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReferenceApp } from './app.js';
import { drawFaults, HTML_502_PAGE } from './faults.js';
import { deriveRandom } from './random.js';
import { StreamCutError } from './stream-body.js';
import { askUrl, bodyJson, bodyText, DEMO, demoApp, request } from './test-helpers.js';

const ASK = askUrl({ prompt: 'How long is the free trial?' });

function balance(app: ReferenceApp): number {
  return app.context.accounts.balanceUnits('demo');
}

afterEach(() => {
  vi.useRealTimers();
});

describe('faults forced by header', () => {
  it('answers 500, 429, 502 HTML and 402 without debiting', async () => {
    const app = await demoApp({ retryAfterS: 7 });
    const before = balance(app);
    const fault = (kind: string) => app.handle(request('GET', ASK, { headers: { 'x-kbbench-fault': kind } }));
    const server = await fault('500');
    expect([server.status, bodyJson(server).error]).toEqual([500, 'Internal Server Error']);
    const limited = await fault('429');
    expect([limited.status, limited.headers['retry-after']]).toEqual([429, '7']);
    const proxy = await fault('502-html');
    expect([proxy.status, proxy.headers['content-type'], proxy.body]).toEqual([502, 'text/html; charset=utf-8', HTML_502_PAGE]);
    const payment = await fault('402');
    expect([payment.status, bodyJson(payment).error]).toEqual([402, 'Payment Required']);
    expect(balance(app)).toBe(before);
    expect((await fault('teapot')).status).toBe(400);
  });

  it('cuts a paid stream mid-way', async () => {
    const app = await demoApp();
    const before = balance(app);
    const response = await app.handle(request('GET', askUrl({ prompt: 'How long is the free trial?', streaming: 'true' }), { headers: { 'x-kbbench-fault': 'cut' } }));
    expect(response.status).toBe(200);
    await expect(bodyText(response)).rejects.toBeInstanceOf(StreamCutError);
    expect(balance(app)).toBeLessThan(before);
    const json = await app.handle(request('GET', ASK, { headers: { 'x-kbbench-fault': 'cut' } }));
    expect(json.cutAfterBytes).toBeLessThan(Buffer.byteLength(json.body ?? ''));
  });

  it('stalls for the asked time, on any endpoint (fake timers)', async () => {
    const app = await demoApp();
    vi.useFakeTimers();
    let answered = false;
    const responding = app.handle(request('GET', '/api/boards', { headers: { 'x-kbbench-fault': 'stall=60' } })).then((response) => {
      answered = true;
      return response;
    });
    await vi.advanceTimersByTimeAsync(59);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await responding).status).toBe(200);
  });
});

describe('random faults', () => {
  it('follow their rates', async () => {
    const always = async (options: Record<string, number>): Promise<number> => (await (await demoApp(options)).handle(request('GET', ASK))).status;
    expect(await always({ faultRate: 1 })).toBe(500);
    expect(await always({ rateLimitRate: 1 })).toBe(429);
    expect(await always({ html502Rate: 1 })).toBe(502);
    expect(await always({ faultRate: 0 })).toBe(200);
  });

  it('each take their own share of all requests, side by side', () => {
    const options = { html502Rate: 0.05, rateLimitRate: 0.2, faultRate: 0.1, retryAfterS: 1, stallMs: 10, stallRate: 0.3, cutRate: 0.1 };
    const random = deriveRandom(3, 'faults');
    const counts = { '502-html': 0, '429': 0, '500': 0, stall: 0, cut: 0 };
    const draws = 40_000;
    for (let i = 0; i < draws; i++) {
      const plan = drawFaults(options, random);
      if (plan.gateway) counts[plan.gateway]++;
      if (plan.server === '500') counts['500']++;
      if (plan.stallMs > 0) counts.stall++;
      if (plan.cut) counts.cut++;
    }
    const shares = Object.fromEntries(Object.entries(counts).map(([kind, n]) => [kind, n / draws]));
    const expected = { '502-html': 0.05, '429': 0.2, '500': 0.1, stall: 0.3, cut: 0.1 };
    for (const [kind, share] of Object.entries(expected)) expect(Math.abs((shares[kind] ?? 0) - share)).toBeLessThan(0.01);
  });

  it('repeat the same sequence for the same seed', async () => {
    const statuses = async (seed: number): Promise<number[]> => {
      const app = await demoApp({ seed, faultRate: 0.5 });
      const result: number[] = [];
      for (let i = 0; i < 20; i++) result.push((await app.handle(request('GET', ASK))).status);
      return result;
    };
    const first = await statuses(11);
    expect(await statuses(11)).toEqual(first);
    expect(new Set(first)).toEqual(new Set([200, 500]));
  });

  it('spare listing endpoints', async () => {
    const app = await demoApp({ faultRate: 1 });
    expect((await app.handle(request('GET', '/api/boards'))).status).toBe(200);
  });

  it('limit answers in flight with 429 when maxInFlight is set', async () => {
    // An unread stream holds its slot, so no delay is needed to keep the first answer in flight.
    const app = await demoApp({ maxInFlight: 1 });
    const streaming = askUrl({ prompt: 'How long is the free trial?', streaming: 'true', model: 'gpt-4o-mini' });
    const first = await app.handle(request('GET', streaming));
    const second = await app.handle(request('GET', streaming));
    expect(second.status).toBe(429);
    await bodyText(first);
    const third = await app.handle(request('GET', streaming));
    expect(third.status).toBe(200);
    // Giving a stream up unread (a client that left) frees its slot as well.
    await third.stream?.[Symbol.asyncIterator]().return?.();
    expect((await app.handle(request('GET', ASK, { headers: { 'x-api-key': DEMO.key } }))).status).toBe(200);
    expect(app.context.inFlight.answers).toBe(0);
  });
});
