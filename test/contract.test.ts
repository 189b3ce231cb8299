// The wire contract, part 1: every endpoint in both forms through the client, against the reference
// service in-process. The two are independent parties (neither imports the other), so a pass here
// proves the wire, not a shared shortcut. Streams are in contract-streams, errors in contract-errors.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, decodeStream, type ClientOptions, type KbClient } from '../src/client/index.js';
import { KbError, type AnswerResult, type AskRequest } from '../src/domain/index.js';
import { startReferenceService, type RunningService } from '../src/server/index.js';

const BOARD = 'winter-frost-CJk4G';
const CHAT = 'chatNode-patient-star-4uIJt';
const BILLING_CHAT = 'chatNode-quiet-ledger-9KpRw';
const OTHER_BOARD = 'summer-dawn-Xb7Qe';
const OTHER_CHAT = 'chatNode-brave-otter-2mNcZ';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const PROMPT = 'How long do customers have to ask for a refund?';
const target = { boardId: BOARD, chatId: CHAT };

let service: RunningService;
let demoKey: string;
let otherKey: string;
let client: KbClient;
const opened: KbClient[] = [];

function clientOf(options: Partial<ClientOptions> = {}): KbClient {
  const created = createClient({ baseUrl: service.url, apiKey: demoKey, ...options });
  opened.push(created);
  return created;
}

async function failure(promise: Promise<unknown>): Promise<KbError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof KbError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

/** Credits as integer units of 0.00001: the service's own resolution. */
const units = (credits: number | null): number => Math.round((credits ?? Number.NaN) * 100_000);
const hasFiveDecimalsAtMost = (credits: number | null): boolean => credits !== null && Number(credits.toFixed(5)) === credits;

beforeAll(async () => {
  service = await startReferenceService({ latencyScale: 0, seed: 11 });
  [demoKey = '', otherKey = ''] = service.keys;
  client = clientOf();
});
afterAll(async () => {
  await Promise.all(opened.map((c) => c.close()));
  await service.close();
});

describe('ask (4.1 POST, 4.2 GET), streamed and not', () => {
  it('gives the same answer in all four forms, JSON and streamed', async () => {
    const forms: AskRequest[] = [
      { ...target, prompt: PROMPT, method: 'post', streaming: false },
      { ...target, prompt: PROMPT, method: 'get', streaming: false },
      { ...target, prompt: PROMPT, method: 'post', streaming: true, includeUsage: true },
      { ...target, prompt: PROMPT, method: 'get', streaming: true, includeUsage: true },
    ];
    const [postJson, getJson, postStream, getStream] = await Promise.all(forms.map((form) => client.ask(form)));
    expect(postJson).toMatchObject({ status: 200, streamed: false, dialect: 'json', finished: true });
    expect(postJson?.text).toContain('30 days');
    for (const answer of [getJson, postStream, getStream]) {
      expect(answer?.text).toBe(postJson?.text);
      expect(answer?.creditsUsed).toBe(postJson?.creditsUsed);
    }
    for (const answer of [postStream, getStream]) {
      expect(answer).toMatchObject({ status: 200, streamed: true, dialect: 'ui-sse', finished: true });
      expect(answer?.chunks.length).toBeGreaterThan(1);
      expect(answer?.marks.firstChunkAt).toBeGreaterThanOrEqual(answer?.marks.headersAt ?? Infinity);
    }
  });

  it('accepts every documented model value and reports what was asked', async () => {
    const models = ['claude-sonnet-4-6', 'claude-sonnet-4-5', 'claude-sonnet-5', 'o3-mini', 'gpt-4o', 'grok-2-1212', 'gpt-4o-mini'];
    const answers = await Promise.all(models.map((model) => client.ask({ ...target, prompt: PROMPT, model, method: 'get' })));
    for (const answer of answers) expect(answer.text.length).toBeGreaterThan(0);
    expect(new Set(answers.map((a) => a.text)).size).toBeGreaterThan(1);
  });
});

describe('conversations: create (4.5), continue (4.3 POST, 4.4 GET), list chats', () => {
  it('creates a thread with a UUID, a default name, an ISO time and the ids it was given', async () => {
    const wallBefore = new Date().toISOString();
    const created = await client.createConversation(target);
    expect(created.conversationId).toMatch(UUID);
    expect(created.name.startsWith('API Conversation - ')).toBe(true);
    expect(new Date(created.createdAt).toISOString()).toBe(created.createdAt);
    expect(created.createdAt >= wallBefore).toBe(true);
    expect(created).toMatchObject(target);
    const named = await client.createConversation({ ...target, name: 'Refund questions' });
    expect(named.name).toBe('Refund questions');
    expect(named.conversationId).not.toBe(created.conversationId);
  });

  it('lists the conversations created under their chat, and only there', async () => {
    const a = await client.createConversation({ ...target, name: 'listed A' });
    const b = await client.createConversation({ ...target, name: 'listed B' });
    const billing = await client.createConversation({ boardId: BOARD, chatId: BILLING_CHAT, name: 'billing thread' });
    const chats = await client.listChats(BOARD);
    expect(chats.map((chat) => chat.id)).toEqual(expect.arrayContaining([CHAT, BILLING_CHAT]));
    const support = chats.find((chat) => chat.id === CHAT)?.conversations ?? [];
    expect(support).toEqual(expect.arrayContaining([{ id: a.conversationId, name: 'listed A' }, { id: b.conversationId, name: 'listed B' }]));
    expect(support.map((c) => c.id)).not.toContain(billing.conversationId);
    expect(chats.find((chat) => chat.id === BILLING_CHAT)?.conversations).toContainEqual({ id: billing.conversationId, name: 'billing thread' });
  });

  it('continues in all four forms; with nothing saved, a turn answers as a one-time question does', async () => {
    const reference = await client.ask({ ...target, prompt: PROMPT });
    const { conversationId } = await client.createConversation(target);
    const forms = [
      { method: 'post', streaming: false },
      { method: 'get', streaming: false },
      { method: 'post', streaming: true },
      { method: 'get', streaming: true },
    ] as const;
    for (const form of forms) {
      const answer = await client.continueConversation({ ...target, ...form, conversationId, prompt: PROMPT, saveHistory: false, includeUsage: true, user: 'contract', source: 'vitest' });
      expect(answer.text, `${form.method} streaming=${form.streaming}`).toBe(reference.text);
      expect(answer.creditsUsed).toBe(reference.creditsUsed);
      expect(answer.dialect).toBe(form.streaming ? 'ui-sse' : 'json');
    }
  });
});

describe('boards (4.6) and who sees what', () => {
  it('lists exactly the boards of the key', async () => {
    expect(await client.listBoards()).toEqual([{ id: BOARD, name: 'Cobalt Desk help centre' }]);
    const other = clientOf({ apiKey: otherKey });
    expect(await other.listBoards()).toEqual([{ id: OTHER_BOARD, name: 'Escalation playbooks' }]);
  });

  it('treats another account’s board as unknown on every endpoint', async () => {
    const other = clientOf({ apiKey: otherKey });
    const { conversationId } = await client.createConversation(target);
    const attempts = [
      () => other.listChats(BOARD),
      () => other.createConversation(target),
      () => other.ask({ ...target, prompt: PROMPT }),
      () => other.continueConversation({ ...target, conversationId, prompt: PROMPT }),
      () => client.ask({ boardId: OTHER_BOARD, chatId: OTHER_CHAT, prompt: 'When do I escalate?' }),
    ];
    for (const attempt of attempts) expect(await failure(attempt())).toMatchObject({ code: 'E_NOT_FOUND', statusCode: 404 });
    expect((await other.ask({ boardId: OTHER_BOARD, chatId: OTHER_CHAT, prompt: 'When do I escalate a ticket?' })).text).toContain('20 customers');
  });
});

describe('the API key as x-api-key header, api_key header and api_key query', () => {
  const placements: { name: string; options: Partial<ClientOptions> }[] = [
    { name: 'x-api-key header', options: {} },
    { name: 'api_key header', options: { apiKeyHeader: 'api_key' } },
    { name: 'api_key query', options: { auth: 'query' } },
  ];

  it.each(placements)('every endpoint works with the key as $name', async ({ options }) => {
    const placed = clientOf(options);
    expect(await placed.listBoards()).toHaveLength(1);
    expect((await placed.listChats(BOARD)).length).toBeGreaterThan(0);
    const { conversationId } = await placed.createConversation(target);
    for (const method of ['post', 'get'] as const) {
      expect((await placed.ask({ ...target, prompt: PROMPT, method })).text).toContain('30 days');
      expect((await placed.continueConversation({ ...target, conversationId, prompt: PROMPT, method })).text).toContain('30 days');
    }
  });

  it.each(placements)('a wrong key as $name is 401 everywhere', async ({ options }) => {
    const wrong = clientOf({ ...options, apiKey: 'kb-wrong-key' });
    const attempts = [
      () => wrong.listBoards(),
      () => wrong.listChats(BOARD),
      () => wrong.createConversation(target),
      () => wrong.ask({ ...target, prompt: PROMPT }),
      () => wrong.ask({ ...target, prompt: PROMPT, method: 'get', streaming: true }),
      () => wrong.continueConversation({ ...target, conversationId: '6de563f8-9b05-4710-9b46-4dd6761e2942', prompt: PROMPT }),
    ];
    for (const attempt of attempts) expect(await failure(attempt())).toMatchObject({ code: 'E_UNAUTHORIZED', statusCode: 401 });
  });
});

describe('credits', () => {
  it('remaining falls by exactly credits_used, to 5 decimals, across consecutive answers of every kind', async () => {
    const { conversationId } = await client.createConversation(target);
    const prompts = [PROMPT, 'Which plans include single sign-on?', 'How much does the Team plan cost?', 'Is my data encrypted?'];
    const steps: (() => Promise<AnswerResult>)[] = prompts.flatMap((prompt) => [
      () => client.ask({ ...target, prompt }),
      () => client.ask({ ...target, prompt, method: 'get', streaming: true, includeUsage: true }),
      () => client.continueConversation({ ...target, conversationId, prompt }),
      () => client.continueConversation({ ...target, conversationId, prompt, method: 'get', streaming: true, includeUsage: true }),
    ]);
    let lastRemaining: number | null = null;
    let usedSince = 0;
    let checked = 0;
    for (const step of steps) {
      const answer = await step();
      expect(answer.creditsUsed).toBeGreaterThan(0);
      expect(hasFiveDecimalsAtMost(answer.creditsUsed)).toBe(true);
      usedSince += units(answer.creditsUsed);
      if (answer.creditsRemaining === null) continue;
      expect(hasFiveDecimalsAtMost(answer.creditsRemaining)).toBe(true);
      if (lastRemaining !== null) {
        expect(units(lastRemaining) - usedSince).toBe(units(answer.creditsRemaining));
        checked++;
      }
      lastRemaining = answer.creditsRemaining;
      usedSince = 0;
    }
    expect(checked).toBe(prompts.length * 2 - 1);
  });
});

describe('additional_context and thread memory', () => {
  it('answers from additional_context, and a follow-up in the thread still knows it', async () => {
    const oneTime = await client.ask({ ...target, prompt: 'What is my favourite number?', additionalContext: 'My favourite number is 444' });
    expect(oneTime.text).toContain('444');
    expect((await client.ask({ ...target, prompt: 'What is my favourite number?' })).text).not.toContain('444');
    for (const method of ['post', 'get'] as const) {
      const { conversationId } = await client.createConversation(target);
      const first = await client.continueConversation({ ...target, method, conversationId, prompt: 'What is my favourite number?', additionalContext: 'My favourite number is 444' });
      expect(first.text).toContain('444');
      const followUp = await client.continueConversation({ ...target, method, conversationId, prompt: 'Please remind me, what was my favourite number?', streaming: true });
      expect(followUp.text, method).toContain('444');
    }
  });

  it('does not remember an exchange sent with save_history false (POST boolean, GET string)', async () => {
    for (const method of ['post', 'get'] as const) {
      const forgetful = await client.createConversation(target);
      await client.continueConversation({ ...target, method, conversationId: forgetful.conversationId, prompt: 'My name is Ada Lovelace.', saveHistory: false });
      const forgot = await client.continueConversation({ ...target, method, conversationId: forgetful.conversationId, prompt: 'What is my name?' });
      expect(forgot.text, method).not.toContain('Ada');
      const control = await client.createConversation(target);
      await client.continueConversation({ ...target, method, conversationId: control.conversationId, prompt: 'My name is Ada Lovelace.', saveHistory: true });
      const remembered = await client.continueConversation({ ...target, method, conversationId: control.conversationId, prompt: 'What is my name?' });
      expect(remembered.text, method).toContain('Ada Lovelace');
    }
  });
});

/** The client sends flags as 'true'/'false'; `active` is sent raw and the body decoded by the client's decoder. */
async function rawAnswer(method: 'GET' | 'POST', params: Record<string, string>): Promise<{ contentType: string; text: string; usage: number | null }> {
  const query = new URLSearchParams({ board_id: BOARD, chat_id: CHAT, ...(method === 'GET' ? params : {}) });
  const response = await request(`${service.url}/api/conversation?${query.toString()}`, {
    method,
    headers: { 'x-api-key': demoKey, 'content-type': 'application/json' },
    body: method === 'POST' ? JSON.stringify(params) : undefined,
  });
  expect(response.statusCode).toBe(200);
  const contentType = String(response.headers['content-type']);
  let text = '';
  let usage: number | null = null;
  for await (const event of decodeStream(response.body, { contentType, headers: response.headers })) {
    if (event.kind === 'chunk') text += event.text;
    if (event.kind === 'usage') usage = event.creditsUsed;
    if (event.kind === 'body') text = (JSON.parse(event.raw) as { text: string }).text;
  }
  return { contentType, text, usage };
}

describe('flag-like strings: `active` works like `true`', () => {
  it('streaming, plaintext and include_usage as `active`, in POST body and GET query', async () => {
    const plain = await client.ask({ ...target, prompt: 'How much does the Team plan cost?', plaintext: true });
    expect(plain.text).not.toMatch(/\*\*|^- /m);
    for (const method of ['POST', 'GET'] as const) {
      const active = await rawAnswer(method, { prompt: 'How much does the Team plan cost?', streaming: 'active', plaintext: 'active', include_usage: 'active' });
      expect(active.contentType, method).toMatch(/^text\/event-stream/);
      expect(active.text, method).toBe(plain.text);
      expect(active.usage, method).toBe(plain.creditsUsed);
      const off = await rawAnswer(method, { prompt: 'How much does the Team plan cost?', streaming: 'inactive', plaintext: 'no' });
      expect(off.contentType, method).toMatch(/^application\/json/);
      expect(off.text, method).not.toBe(plain.text);
    }
  });
});
