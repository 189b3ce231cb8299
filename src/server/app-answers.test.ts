import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { KNOWN_MODELS, UiChunkSchema } from '../protocol/index.js';
import { createReferenceApp } from './app.js';
import { resolveServiceOptions } from './options.js';
import { askUrl, bodyJson, bodyText, DEMO, demoApp, request, sseData, writeTempFiles } from './test-helpers.js';
import { loadWorkspace } from './workspace.js';

interface Answer {
  text: string;
  credits_used: number;
  credits_remaining: number;
}

async function createThread(app: Awaited<ReturnType<typeof demoApp>>): Promise<string> {
  const response = await app.handle(request('POST', '/api/conversation/new', { body: { boardId: DEMO.boardId, chatId: DEMO.chatId } }));
  return bodyJson<{ conversationId: string }>(response).conversationId;
}

describe('asking', () => {
  it('gives the same answer through POST and GET', async () => {
    const app = await demoApp();
    const post = await app.handle(request('POST', askUrl(), { body: { prompt: 'How long is the free trial?', model: 'gpt-4o' } }));
    const get = await app.handle(request('GET', askUrl({ prompt: 'How long is the free trial?', model: 'gpt-4o' })));
    expect(post.status).toBe(200);
    expect(bodyJson<Answer>(post).text).toContain('14-day');
    expect(bodyJson<Answer>(get).text).toBe(bodyJson<Answer>(post).text);
  });

  it('accepts all seven models and rejects others with validation details', async () => {
    const app = await demoApp();
    for (const model of KNOWN_MODELS) {
      expect((await app.handle(request('GET', askUrl({ prompt: 'Is Cobalt Desk SOC 2 certified?', model })))).status).toBe(200);
    }
    const unknown = await app.handle(request('GET', askUrl({ prompt: 'hi', model: 'gpt-2' })));
    expect(unknown.status).toBe(400);
    expect(String(bodyJson<{ details: Record<string, string> }>(unknown).details.model)).toContain('claude-sonnet-4-6');
  });

  it('validates prompt, ids and field types', async () => {
    const app = await demoApp();
    const noPrompt = await app.handle(request('POST', askUrl(), { body: {} }));
    expect(bodyJson(noPrompt).details).toEqual({ prompt: 'is required' });
    const badTypes = await app.handle(request('POST', '/api/conversation', { body: { prompt: 5, streaming: 1 } }));
    expect(bodyJson(badTypes).details).toEqual({ board_id: 'is required', chat_id: 'is required', prompt: 'must be a string', streaming: 'must be a string or a boolean' });
    expect((await app.handle(request('POST', askUrl(), { body: '[1]' }))).status).toBe(400);
    expect((await app.handle(request('POST', askUrl({ chat_id: 'chatNode-nope' }), { body: { prompt: 'hi' } }))).status).toBe(404);
    const otherBoard = await app.handle(request('GET', `/api/conversation?board_id=${DEMO.otherBoardId}&chat_id=${DEMO.otherChatId}&prompt=hi`));
    expect(otherBoard.status).toBe(404);
  });

  it('answers a prompt near the 1 MiB limit: one huge word, or a hundred thousand distinct ones', async () => {
    const app = await demoApp();
    const prompts = [`How long is the refund window? ${'abcdefgh'.repeat(100_000)}`, `How long is the refund window? ${Array.from({ length: 100_000 }, (_, i) => `w${i}`).join(' ')}`];
    for (const prompt of prompts) {
      const response = await app.handle(request('POST', askUrl(), { body: { prompt } }));
      expect(response.status).toBe(200);
      expect(bodyJson<Answer>(response).text).toContain('30 days');
      // The service answers on one event loop: a slow question stalls every other one. That it takes
      // seconds, not minutes (a quadratic blow-up), is measured by bench/timing-claims.mjs.
    }
  });

  it('answers in plain text when plaintext is true or active', async () => {
    const app = await demoApp();
    for (const flag of ['true', 'active']) {
      const text = bodyJson<Answer>(await app.handle(request('GET', askUrl({ prompt: 'How much does the Team plan cost?', plaintext: flag })))).text;
      expect(text).not.toMatch(/\*\*|^- /m);
    }
    const markdown = bodyJson<Answer>(await app.handle(request('GET', askUrl({ prompt: 'How much does the Team plan cost?', plaintext: 'yes' })))).text;
    expect(markdown).toMatch(/^- /m);
  });

  it('lowers credits_remaining by exactly credits_used', async () => {
    const app = await demoApp();
    let previous: number | undefined;
    for (const prompt of ['How long is the free trial?', 'Which plans do you offer?', 'How is customer data encrypted?']) {
      const answer = bodyJson<Answer>(await app.handle(request('POST', askUrl(), { body: { prompt } })));
      expect(answer.credits_used).toBeGreaterThan(0);
      expect(Number(answer.credits_used.toFixed(5))).toBe(answer.credits_used);
      if (previous !== undefined) expect(answer.credits_remaining).toBe(Number((previous - answer.credits_used).toFixed(5)));
      previous = answer.credits_remaining;
    }
  });

  it('answers 402 without debiting when the account cannot pay', async () => {
    const yaml = `accounts: [ { id: a, name: A, key: key-poor-0001, credits: 0.0003 } ]\nboards: [ { id: b, name: B, account: a, chats: [ { id: c, documents: [d.md] } ] } ]\n`;
    const folder = await writeTempFiles({ 'ws.yaml': yaml, 'd.md': '# Doc\n\nRefunds take 30 days.' });
    const app = createReferenceApp(await loadWorkspace(join(folder, 'ws.yaml')), resolveServiceOptions({ latencyScale: 0 }));
    const ask = (model: string) => app.handle({ method: 'GET', url: `/api/conversation?board_id=b&chat_id=c&prompt=refunds&model=${model}`, headers: { 'x-api-key': 'key-poor-0001' } });
    const cheap = bodyJson<Answer>(await ask('gpt-4o-mini'));
    expect(cheap.credits_remaining).toBe(Number((0.0003 - cheap.credits_used).toFixed(5)));
    const refused = await ask('claude-sonnet-5');
    expect([refused.status, bodyJson(refused).error]).toEqual([402, 'Payment Required']);
    expect(bodyJson<Answer>(await ask('gpt-4o-mini')).credits_remaining).toBe(Number((cheap.credits_remaining - cheap.credits_used).toFixed(5)));
  });
});

describe('streaming', () => {
  it('streams UI-message SSE, with usage after finish only when asked', async () => {
    const app = await demoApp();
    const response = await app.handle(request('POST', askUrl(), { body: { prompt: 'How long is the free trial?', streaming: 'true', include_usage: true } }));
    expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
    const data = sseData(await bodyText(response));
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((d) => UiChunkSchema.parse(JSON.parse(d)));
    const types = chunks.map((c) => c.type);
    expect(types.indexOf('usage')).toBe(types.indexOf('finish') + 1);
    const text = chunks.map((c) => (c.type === 'text-delta' ? c.delta : '')).join('');
    const json = bodyJson<Answer>(await app.handle(request('POST', askUrl(), { body: { prompt: 'How long is the free trial?' } })));
    expect(text).toBe(json.text);
    const usage = chunks.at(-1);
    expect(usage?.type === 'usage' && usage.credits_used).toBe(json.credits_used);
    const noUsage = sseData(await bodyText(await app.handle(request('GET', askUrl({ prompt: 'trial', streaming: 'active' })))));
    expect(noUsage.some((d) => d.includes('"usage"'))).toBe(false);
    expect(noUsage.some((d) => d.includes('"finish"'))).toBe(true);
  });

  it('switches dialect and line endings per request', async () => {
    const app = await demoApp();
    const headers = { 'x-kbbench-dialect': 'text', 'x-kbbench-crlf': '1' };
    const text = await bodyText(await app.handle(request('GET', askUrl({ prompt: 'How long is the free trial?', streaming: 'true' }), { headers })));
    expect(text).toContain('14-day');
    expect(text).not.toContain('data:');
    const crlf = await bodyText(await app.handle(request('GET', askUrl({ prompt: 'trial', streaming: 'true' }), { headers: { 'x-kbbench-crlf': '1' } })));
    expect(crlf).toContain('\r\n\r\n');
    const bad = await app.handle(request('GET', askUrl({ prompt: 'trial', streaming: 'true' }), { headers: { 'x-kbbench-dialect': 'smoke-signals' } }));
    expect(bad.status).toBe(400);
  });
});

describe('continuing a conversation', () => {
  it('keeps saved turns as context, and forgets unsaved ones', async () => {
    const app = await demoApp();
    const id = await createThread(app);
    const continueUrl = askUrl({}, `/api/conversation/${id}`);
    const first = await app.handle(request('POST', continueUrl, { body: { prompt: 'What is my favourite number?', additional_context: 'My favourite number is 444' } }));
    expect(bodyJson<Answer>(first).text).toContain('444');
    const followUp = await app.handle(request('GET', askUrl({ prompt: 'Please remind me, what was my favourite number?' }, `/api/conversation/${id}`)));
    expect(bodyJson<Answer>(followUp).text).toContain('444');

    const unsaved = await createThread(app);
    const unsavedUrl = askUrl({}, `/api/conversation/${unsaved}`);
    await app.handle(request('POST', unsavedUrl, { body: { prompt: 'What is my favourite number?', additional_context: 'My favourite number is 444', save_history: false } }));
    const forgot = await app.handle(request('POST', unsavedUrl, { body: { prompt: 'Please remind me, what was my favourite number?' } }));
    expect(bodyJson<Answer>(forgot).text).not.toContain('444');
  });

  it('answers 404 for an unknown thread or one of another chat', async () => {
    const app = await demoApp();
    const id = await createThread(app);
    expect((await app.handle(request('POST', askUrl({}, '/api/conversation/xMmCzgatt8TAI1L58LYQ'), { body: { prompt: 'hi' } }))).status).toBe(404);
    const otherChat = await app.handle(request('POST', askUrl({ chat_id: DEMO.billingChatId }, `/api/conversation/${id}`), { body: { prompt: 'hi' } }));
    expect(otherChat.status).toBe(404);
    const otherKey = await app.handle(request('POST', askUrl({}, `/api/conversation/${id}`), { body: { prompt: 'hi' }, headers: { 'x-api-key': DEMO.otherKey } }));
    expect(otherKey.status).toBe(404);
  });

  it('lets the judge chat grade an answer', async () => {
    const app = await demoApp();
    const prompt = 'RUBRIC:\nThe answer must mention "30 days".\nANSWER:\nYou can get a refund within 30 days.';
    const answer = bodyJson<Answer>(await app.handle(request('POST', askUrl({ chat_id: DEMO.judgeChatId }), { body: { prompt } })));
    expect(answer.text.split('\n')[0]).toBe('VERDICT: PASS');
  });
});
