// The wire contract, part 3: every error body and code through the client, against the reference
// service in-process: 400, 401, 402, 404, 413, 429, 500, HTML 502, stalls (timeout phases) and cuts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type ClientOptions, type KbClient } from '../src/client/index.js';
import { HttpError, KbError, type AnswerResult, type AskRequest } from '../src/domain/index.js';
import { STREAM_DIALECTS } from '../src/protocol/index.js';
import { DIALECT_HEADER, FAULT_HEADER, SPLIT_HEADER, startReferenceService, type RunningService } from '../src/server/index.js';
import { ROOT } from './helpers.js';

const BOARD = 'winter-frost-CJk4G';
const CHAT = 'chatNode-patient-star-4uIJt';
const target = { boardId: BOARD, chatId: CHAT };
const question: AskRequest = { ...target, prompt: 'How much does the Team plan cost?' };
const MAX_BODY_BYTES = 4096;
const RETRY_AFTER_S = 7;

let service: RunningService;
let client: KbClient;
const opened: KbClient[] = [];

function clientOf(options: Partial<ClientOptions> = {}, on: RunningService = service): KbClient {
  const created = createClient({ baseUrl: on.url, apiKey: on.keys[0] ?? '', ...options });
  opened.push(created);
  return created;
}
const faulty = (fault: string, headers: Record<string, string> = {}): KbClient => clientOf({ headers: { [FAULT_HEADER]: fault, ...headers } });

async function failure(promise: Promise<unknown>): Promise<KbError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof KbError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

/** Every answer form: ask and continue, POST and GET, JSON and streamed. */
async function answerForms(on: KbClient, conversationId: string): Promise<(() => Promise<AnswerResult>)[]> {
  return (['post', 'get'] as const).flatMap((method) =>
    [false, true].flatMap((streaming) => [
      () => on.ask({ ...question, method, streaming }),
      () => on.continueConversation({ ...question, conversationId, method, streaming }),
    ]),
  );
}

beforeAll(async () => {
  service = await startReferenceService({ latencyScale: 0, maxBodyBytes: MAX_BODY_BYTES, retryAfterS: RETRY_AFTER_S });
  client = clientOf();
});
afterAll(async () => {
  await Promise.all(opened.map((c) => c.close()));
  await service.close();
});

describe('401: the documented bodies', () => {
  it('list boards answers {error: "Unauthorized"} and nothing else', async () => {
    for (const apiKey of ['kb-wrong-key', '']) {
      const error = await failure(clientOf({ apiKey }).listBoards());
      expect(error).toMatchObject({ code: 'E_UNAUTHORIZED', statusCode: 401 });
      expect((error as HttpError).body).toEqual({ error: 'Unauthorized' });
      expect(error.message).not.toContain('kb-wrong-key');
    }
  });

  it('create conversation answers {error, message}', async () => {
    const error = await failure(clientOf({ apiKey: 'kb-wrong-key' }).createConversation(target));
    expect(error).toMatchObject({ code: 'E_UNAUTHORIZED', statusCode: 401 });
    expect((error as HttpError).body).toEqual({ error: 'Unauthorized', message: 'Invalid or missing API key.' });
  });
});

describe('400: validation failures carry details', () => {
  const VALIDATION = { error: 'Validation failed', message: 'Request validation failed. Please check your parameters.' };

  it('create conversation with empty or missing ids', async () => {
    const empty = await failure(client.createConversation({ boardId: '', chatId: '' }));
    expect(empty).toMatchObject({ code: 'E_VALIDATION', statusCode: 400 });
    expect((empty as HttpError).body).toEqual({ ...VALIDATION, details: { boardId: 'must not be empty', chatId: 'must not be empty' } });
    expect((empty as unknown as { details: unknown }).details).toEqual({ boardId: 'must not be empty', chatId: 'must not be empty' });
    const missing = await failure(client.createConversation({ boardId: BOARD } as unknown as typeof target));
    expect((missing as HttpError).body).toEqual({ ...VALIDATION, details: { chatId: 'is required' } });
  });

  it('ask and continue with an empty prompt or an unknown model, in both forms', async () => {
    const { conversationId } = await client.createConversation(target);
    for (const method of ['post', 'get'] as const) {
      const noPrompt = await failure(client.ask({ ...question, prompt: '', method }));
      expect(noPrompt).toMatchObject({ code: 'E_VALIDATION', statusCode: 400, details: { prompt: 'must not be empty' } });
      const badModel = await failure(client.continueConversation({ ...question, conversationId, model: 'gpt-99', method, streaming: true }));
      expect(badModel).toMatchObject({ code: 'E_VALIDATION', statusCode: 400 });
      expect((badModel as HttpError).body).toMatchObject({ ...VALIDATION, details: { model: expect.stringContaining('gpt-4o') } });
    }
  });
});

describe('404: unknown board, chat and conversation', () => {
  it('on every endpoint that names one', async () => {
    const { conversationId } = await client.createConversation(target);
    const onBillingChat = await client.createConversation({ boardId: BOARD, chatId: 'chatNode-quiet-ledger-9KpRw' });
    const attempts = [
      () => client.listChats('no-such-board'),
      () => client.createConversation({ boardId: 'no-such-board', chatId: CHAT }),
      () => client.createConversation({ boardId: BOARD, chatId: 'chatNode-no-such-chat' }),
      () => client.ask({ ...question, boardId: 'no-such-board' }),
      () => client.ask({ ...question, chatId: 'chatNode-no-such-chat', method: 'get', streaming: true }),
      () => client.continueConversation({ ...question, conversationId: '6de563f8-9b05-4710-9b46-4dd6761e2942' }),
      () => client.continueConversation({ ...question, conversationId: 'xMmCzgatt8TAI1L58LYQ', method: 'get' }),
      () => client.continueConversation({ ...question, conversationId: 'a/b?c=d#e', streaming: true }),
      () => client.continueConversation({ ...question, conversationId: onBillingChat.conversationId }),
      () => client.continueConversation({ ...question, conversationId, chatId: 'chatNode-quiet-ledger-9KpRw' }),
    ];
    for (const [i, attempt] of attempts.entries()) {
      const error = await failure(attempt());
      expect(error, `attempt ${i}`).toMatchObject({ code: 'E_NOT_FOUND', statusCode: 404, body: { error: 'Not found' } });
    }
  });
});

describe('413: body too large', () => {
  it('on ask, continue and create, however far over the limit', async () => {
    const { conversationId } = await client.createConversation(target);
    const attempts = [
      () => client.ask({ ...question, prompt: 'x'.repeat(MAX_BODY_BYTES) }),
      () => client.ask({ ...question, prompt: 'x'.repeat(2_000_000), streaming: true }),
      () => client.continueConversation({ ...question, conversationId, additionalContext: '€'.repeat(MAX_BODY_BYTES) }),
      () => client.createConversation({ ...target, name: 'n'.repeat(MAX_BODY_BYTES) }),
    ];
    for (const attempt of attempts) {
      const error = await failure(attempt());
      expect(error).toMatchObject({ code: 'E_PAYLOAD_TOO_LARGE', statusCode: 413 });
      expect((error as HttpError).body).toEqual({ error: 'Payload Too Large', message: `Request body exceeds ${MAX_BODY_BYTES} bytes.` });
    }
    // The connection the service closed does not break the next request.
    expect((await client.ask(question)).text).toContain('€29');
  });
});

describe('402: credits exhausted', () => {
  it('as an injected fault, on every answer form', async () => {
    const { conversationId } = await client.createConversation(target);
    for (const form of await answerForms(faulty('402'), conversationId)) {
      expect(await failure(form())).toMatchObject({ code: 'E_CREDITS_EXHAUSTED', statusCode: 402, body: { error: 'Payment Required' } });
    }
  });

  it('when a small balance runs out: nothing is debited for a refused answer, and remaining never goes below 0', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'kbbench-contract-'));
    const docs = resolve(ROOT, 'suites/demo/docs');
    writeFileSync(
      join(folder, 'ws.yaml'),
      `docs_root: ${docs}\n` +
        `accounts: [ { id: small, name: Small, key: kb-small-0000-local, credits: 0.1 } ]\n` +
        `boards: [ { id: ${BOARD}, name: Small board, account: small, chats: [ { id: ${CHAT}, documents: ['${docs}/plans-and-pricing.md', '${docs}/refunds.md'] } ] } ]\n`,
    );
    const small = await startReferenceService({ latencyScale: 0, workspacePath: join(folder, 'ws.yaml') });
    try {
      const poor = clientOf({}, small);
      let last: AnswerResult | undefined;
      let refused: KbError | undefined;
      for (let i = 0; i < 100 && !refused; i++) {
        try {
          const answer = await poor.ask({ ...question, model: 'claude-sonnet-5', streaming: i % 2 === 1, includeUsage: true });
          if (answer.creditsRemaining !== null) last = answer;
        } catch (error) {
          refused = error as KbError;
        }
      }
      expect(refused).toMatchObject({ code: 'E_CREDITS_EXHAUSTED', statusCode: 402, body: { error: 'Payment Required' } });
      expect(last?.creditsRemaining).toBeGreaterThanOrEqual(0);
      // A cheaper model still fits what is left, and it is debited from the balance the refusal left untouched.
      const cheap = await poor.ask({ ...question, model: 'gpt-4o-mini' });
      const units = (credits: number | null): number => Math.round((credits ?? Number.NaN) * 100_000);
      expect(units(cheap.creditsRemaining)).toBe(units(last?.creditsRemaining ?? null) - units(cheap.creditsUsed));
    } finally {
      await small.close();
    }
  });
});

describe('gateway and server faults', () => {
  it('429 is RateLimitedError with Retry-After in ms, on every answer form', async () => {
    const { conversationId } = await client.createConversation(target);
    for (const form of await answerForms(faulty('429'), conversationId)) {
      const error = await failure(form());
      expect(error).toMatchObject({ code: 'E_RATE_LIMITED', statusCode: 429, retryAfterMs: RETRY_AFTER_S * 1000 });
      expect((error as HttpError).body).toMatchObject({ error: 'Too Many Requests' });
    }
  });

  it('500 is ServerError with the JSON body', async () => {
    for (const attempt of [() => faulty('500').ask(question), () => faulty('500').listBoards(), () => faulty('500').ask({ ...question, streaming: true })]) {
      const error = await failure(attempt());
      expect(error).toMatchObject({ code: 'E_SERVER', statusCode: 500, body: { error: 'Internal Server Error' } });
    }
  });

  it('an HTML 502 from a proxy is an error with status 502 and the page as text, and the client goes on', async () => {
    const gateway = faulty('502-html');
    for (const attempt of [() => gateway.ask(question), () => gateway.ask({ ...question, streaming: true, method: 'get' }), () => gateway.listBoards(), () => gateway.createConversation(target)]) {
      const error = await failure(attempt());
      expect(error).toBeInstanceOf(HttpError);
      expect(error).toMatchObject({ code: 'E_SERVER', statusCode: 502 });
      expect((error as HttpError).body).toEqual(expect.stringContaining('<title>502 Bad Gateway</title>'));
    }
    expect((await client.ask(question)).text).toContain('€29');
  });

  it('an unknown fault value is a validation error naming the header', async () => {
    expect(await failure(faulty('bogus').ask(question))).toMatchObject({ code: 'E_VALIDATION', details: { [FAULT_HEADER]: expect.any(String) } });
  });
});

describe('stalls: TimeoutError says which phase the deadline hit', () => {
  const STALL = 'stall=5000';
  const DEADLINE_MS = 150;

  it('headers: a JSON answer, a listing or a create that never starts', async () => {
    const { conversationId } = await client.createConversation(target);
    const stalled = faulty(STALL);
    for (const attempt of [
      () => stalled.ask({ ...question, timeoutMs: DEADLINE_MS }),
      () => stalled.continueConversation({ ...question, conversationId, method: 'get', timeoutMs: DEADLINE_MS }),
      () => stalled.listBoards(undefined, DEADLINE_MS),
      () => stalled.listChats(BOARD, undefined, DEADLINE_MS),
      () => stalled.createConversation({ ...target, timeoutMs: DEADLINE_MS }),
    ]) {
      const started = performance.now();
      const error = await failure(attempt());
      expect(error).toMatchObject({ code: 'E_TIMEOUT', phase: 'headers' });
      expect(performance.now() - started).toBeLessThan(2000);
    }
  });

  it('first-chunk: a stream whose headers came but whose text did not', async () => {
    const { conversationId } = await client.createConversation(target);
    const stalled = faulty(STALL);
    for (const attempt of [
      () => stalled.ask({ ...question, streaming: true, timeoutMs: DEADLINE_MS }),
      () => stalled.ask({ ...question, streaming: true, method: 'get', timeoutMs: DEADLINE_MS }),
      () => stalled.continueConversation({ ...question, conversationId, streaming: true, timeoutMs: DEADLINE_MS }),
    ]) {
      const error = await failure(attempt());
      expect(error).toMatchObject({ code: 'E_TIMEOUT', phase: 'first-chunk' });
      expect(error.partial).toMatchObject({ status: 200, text: '' });
    }
    expect((await client.ask(question)).text).toContain('€29');
  });
});

describe('cuts: the connection dies mid-answer', () => {
  const full = async (): Promise<string> => (await client.ask(question)).text;

  it.each(STREAM_DIALECTS)('%s, ragged writes: ConnectionError or StreamError carrying the text so far', async (dialect) => {
    const expected = await full();
    const error = await failure(faulty('cut', { [DIALECT_HEADER]: dialect, [SPLIT_HEADER]: 'true' }).ask({ ...question, streaming: true }));
    expect(['E_CONNECTION', 'E_STREAM']).toContain(error.code);
    expect(error.partial?.status).toBe(200);
    expect(error.partial?.text.length).toBeGreaterThan(0);
    expect(error.partial?.text.length).toBeLessThan(expected.length);
    expect(expected.startsWith(error.partial?.text ?? '-')).toBe(true);
  });

  // Fails today (a server bug, not the client): at latencyScale 0 a whole-write stream is written and cut in one
  // run of the microtask queue; node:http corks those writes until nextTick and res.destroy() (node-adapter.ts,
  // writeStream) discards them, so only the headers leave. Flushing before destroying (socket.destroySoon()) fixes it.
  it('every dialect, whole writes at latencyScale 0: the partial text is not lost', async () => {
    const expected = await full();
    const partials: Record<string, string> = {};
    for (const dialect of STREAM_DIALECTS) {
      const error = await failure(faulty('cut', { [DIALECT_HEADER]: dialect }).ask({ ...question, streaming: true }));
      expect(['E_CONNECTION', 'E_STREAM']).toContain(error.code);
      expect(expected.startsWith(error.partial?.text ?? '-')).toBe(true);
      partials[dialect] = error.partial?.text ?? '';
    }
    expect(Object.entries(partials).filter(([, text]) => text === '').map(([dialect]) => dialect)).toEqual([]);
  });

  it('a JSON answer or a listing cut short is a ConnectionError, not a crash or a half-parsed body', async () => {
    for (const attempt of [() => faulty('cut').ask(question), () => faulty('cut').listBoards(), () => faulty('cut').createConversation(target)]) {
      expect(await failure(attempt())).toMatchObject({ code: 'E_CONNECTION' });
    }
    expect((await client.listBoards()).length).toBe(1);
  });
});
