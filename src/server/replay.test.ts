// A recorded run replayed in-process: recorded answers, credits and dialects, repeats in turn, a 404
// for a question never recorded, and timings drawn from the recording's own values per model.
import { describe, expect, it } from 'vitest';
import { createReferenceApp } from './app.js';
import { resolveServiceOptions } from './options.js';
import { deltasOf, Replay, replayWorkspace, REPLAY_API_KEY, type RecordedAnswer, type Recording } from './replay.js';
import { bodyJson, bodyText, request } from './test-helpers.js';

const answer = (over: Partial<RecordedAnswer>): RecordedAnswer => ({
  model: 'gpt-4o', prompt: 'How long is the refund window?', text: 'Thirty days, from the invoice date.', creditsUsed: 0.01234, creditsRemaining: 99.5,
  streaming: true, dialect: 'openai-sse', ttfcMs: 400, chunks: 3, gapMeanMs: 20, ...over,
});

const RECORDING: Recording = {
  runId: 'run-1', dir: '/runs/nightly', boardId: 'board-live', chatId: 'chat-live',
  answers: [
    answer({}),
    answer({ text: 'A second take: 30 days.', creditsUsed: 0.02 }),
    answer({ model: 'live-model-x', prompt: 'Is there SSO?', text: 'Yes, on **Business**.\n\n- SAML', dialect: 'ndjson', ttfcMs: 900 }),
  ],
};

const appOf = (recording: Recording = RECORDING) => createReferenceApp(replayWorkspace(recording), resolveServiceOptions({ latencyScale: 0 }), recording);
const ask = (params: Record<string, string>): string => `/api/conversation?${new URLSearchParams({ board_id: 'board-live', chat_id: 'chat-live', ...params }).toString()}`;
const headers = { 'x-api-key': REPLAY_API_KEY };

describe('serve --from-run (in process)', () => {
  it('answers a recorded question with its recorded text and credits; its repeats in turn; a model the live service had is accepted', async () => {
    const app = appOf();
    const first = await app.handle(request('GET', ask({ model: 'gpt-4o', prompt: 'How long is the refund window?' }), { headers }));
    expect(bodyJson(first)).toMatchObject({ text: 'Thirty days, from the invoice date.', credits_used: 0.01234 });
    const second = await app.handle(request('GET', ask({ model: 'gpt-4o', prompt: 'How long is the refund window?' }), { headers }));
    expect(bodyJson(second)).toMatchObject({ text: 'A second take: 30 days.', credits_used: 0.02 });
    const third = await app.handle(request('GET', ask({ model: 'gpt-4o', prompt: 'How long is the refund window?' }), { headers }));
    expect(bodyJson(third)).toMatchObject({ text: 'Thirty days, from the invoice date.' });
    const custom = await app.handle(request('POST', ask({}), { headers, body: { model: 'live-model-x', prompt: 'Is there SSO?' } }));
    expect(bodyJson(custom)).toMatchObject({ text: 'Yes, on **Business**.\n\n- SAML' });
  });

  it('streams in the recorded dialect (a test header still forces one), with the usage chunk of the recorded credits', async () => {
    const app = appOf();
    const sse = await bodyText(await app.handle(request('POST', ask({}), { headers, body: { model: 'gpt-4o', prompt: 'How long is the refund window?', streaming: 'true', include_usage: true } })));
    expect(sse).toContain('data: {"choices":[{"index":0,"delta"');
    expect(sse).toContain('"credits_used":0.01234');
    const ndjson = await bodyText(await app.handle(request('POST', ask({}), { headers, body: { model: 'live-model-x', prompt: 'Is there SSO?', streaming: 'true' } })));
    const lines = ndjson.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.length).toBeGreaterThan(1);
    const forced = await app.handle(request('POST', ask({}), { headers: { ...headers, 'x-kbbench-dialect': 'ui-sse' }, body: { model: 'live-model-x', prompt: 'Is there SSO?', streaming: 'true' } }));
    expect(await bodyText(forced)).toContain('text-delta');
  });

  it('a question it never recorded is a 404 naming the run; an unknown board too; the demo key is not the replay\'s', async () => {
    const app = appOf();
    const missing = await app.handle(request('GET', ask({ model: 'gpt-4o', prompt: 'Does it run on the Moon?' }), { headers }));
    expect(missing.status).toBe(404);
    expect(bodyJson<{ message: string }>(missing).message).toMatch(/^No recorded answer: run run-1 never asked gpt-4o "Does it run on the Moon\?"/);
    const otherModel = await app.handle(request('GET', ask({ model: 'gpt-4o-mini', prompt: 'How long is the refund window?' }), { headers }));
    expect(otherModel.status).toBe(404);
    expect((await app.handle(request('GET', ask({ board_id: 'nope', prompt: 'x' }), { headers }))).status).toBe(404);
    expect((await app.handle(request('GET', ask({ prompt: 'x' })))).status).toBe(401);
  });

  it('continues a thread with recorded answers', async () => {
    const app = appOf();
    const created = bodyJson<{ conversationId: string }>(await app.handle(request('POST', '/api/conversation/new', { headers, body: { boardId: 'board-live', chatId: 'chat-live' } })));
    const turn = await app.handle(request('POST', ask({}).replace('/api/conversation?', `/api/conversation/${created.conversationId}?`), { headers, body: { model: 'live-model-x', prompt: 'Is there SSO?', save_history: true } }));
    expect(bodyJson(turn)).toMatchObject({ text: 'Yes, on **Business**.\n\n- SAML' });
  });
});

describe('Replay timings', () => {
  it('draws each model\'s first-chunk times without replacement (as many draws reproduce the recorded values), seeded', () => {
    const ttfcs = [100, 200, 300, 400, 500, 600, 700];
    const recording: Recording = { ...RECORDING, answers: [...ttfcs.map((ttfcMs) => answer({ ttfcMs, gapMeanMs: ttfcMs / 10 })), answer({ model: 'o3-mini', ttfcMs: 5000, gapMeanMs: null })] };
    const draws = (seed: number): number[] => {
      const replay = new Replay(recording, seed);
      return ttfcs.map(() => replay.firstChunkDelayMs('gpt-4o'));
    };
    expect([...draws(1)].sort((a, b) => a - b)).toEqual(ttfcs);
    expect(draws(1)).toEqual(draws(1));
    expect(draws(1)).not.toEqual(draws(2));
    const replay = new Replay(recording, 1);
    expect(replay.firstChunkDelayMs('o3-mini')).toBe(5000);
    // A model whose recording has no gaps draws from every model's.
    expect(ttfcs.map((t) => t / 10)).toContain(replay.chunkGapMs('o3-mini'));
  });

  it('splits the recorded text into the recorded number of chunks, joined back exactly', () => {
    const text = 'One two  three\nfour five.';
    expect(deltasOf(text, 3).join('')).toBe(text);
    expect(deltasOf(text, 3)).toHaveLength(3);
    expect(deltasOf(text, 99).join('')).toBe(text);
    expect(deltasOf('', 0)).toEqual(['']);
  });
});
