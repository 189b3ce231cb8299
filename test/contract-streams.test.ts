// The wire contract, part 2: streamed answers in every dialect, detected and forced, written in ragged
// pieces (through UTF-8 characters) and with CRLF; the reassembled text must equal the JSON answer byte for byte.
import fc from 'fast-check';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, decodeStream, type ClientOptions, type KbClient } from '../src/client/index.js';
import type { AnswerResult, AskRequest } from '../src/domain/index.js';
import { STREAM_DIALECTS, type StreamDialect } from '../src/protocol/index.js';
import { CRLF_HEADER, DIALECT_HEADER, SPLIT_HEADER, startReferenceService, type RunningService } from '../src/server/index.js';

const target = { boardId: 'winter-frost-CJk4G', chatId: 'chatNode-patient-star-4uIJt' };
/** Answers rich in multi-byte UTF-8: €, →, —, 🎉 (4 bytes), CJK (3 bytes). */
const QUESTIONS: AskRequest[] = [
  { ...target, prompt: 'How much does the Team plan cost?' },
  { ...target, prompt: 'What is my favourite emoji?', additionalContext: 'My favourite emoji is 🚀 and my favourite word is 日本語 — naïve ½ → €.' },
];
const WIRES = [
  { name: 'whole writes', split: false, crlf: false },
  { name: 'ragged writes', split: true, crlf: false },
  { name: 'CRLF', split: false, crlf: true },
  { name: 'ragged CRLF', split: true, crlf: true },
] as const;

let service: RunningService;
let key: string;
const opened: KbClient[] = [];
const reference = new Map<string, AnswerResult>();

function clientOf(options: Partial<ClientOptions> = {}): KbClient {
  const created = createClient({ baseUrl: service.url, apiKey: key, ...options });
  opened.push(created);
  return created;
}

const bytesOf = (text: string): string => Buffer.from(text, 'utf8').toString('hex');

beforeAll(async () => {
  service = await startReferenceService({ latencyScale: 0, seed: 3 });
  key = service.keys[0] ?? '';
  const json = clientOf();
  for (const question of QUESTIONS) reference.set(question.prompt, await json.ask({ ...question, streaming: false }));
  const texts = [...reference.values()].map((answer) => answer.text);
  // The point of ragged writes: characters of 2, 3 and 4 bytes that a split can cut through.
  expect(texts.join('')).toMatch(/€/);
  expect(texts.join('')).toMatch(/🚀/u);
  expect(texts.join('')).toMatch(/日本語/);
});
afterAll(async () => {
  await Promise.all(opened.map((c) => c.close()));
  await service.close();
});

const cases = STREAM_DIALECTS.flatMap((dialect) =>
  (['auto', 'forced'] as const).flatMap((mode) => WIRES.map((wire) => ({ dialect, mode, wire: wire.name, split: wire.split, crlf: wire.crlf }))),
);

describe('every dialect, detected and forced, whole and ragged, LF and CRLF', () => {
  it.each(cases)('$dialect $mode, $wire: text byte-exact equal to the JSON answer', async ({ dialect, mode, split, crlf }) => {
    const streaming = clientOf({
      dialect: mode === 'auto' ? 'auto' : dialect,
      headers: { [DIALECT_HEADER]: dialect, [SPLIT_HEADER]: String(split), [CRLF_HEADER]: String(crlf) },
    });
    for (const question of QUESTIONS) {
      const json = reference.get(question.prompt)!;
      for (const method of ['post', 'get'] as const) {
        const answer = await streaming.ask({ ...question, method, streaming: true, includeUsage: true });
        const label = `${method} ${question.prompt}`;
        expect(answer.dialect, label).toBe(dialect);
        expect(answer.streamed, label).toBe(true);
        expect(answer.finished, label).toBe(true);
        expect(bytesOf(answer.text), label).toBe(bytesOf(json.text));
        // Plain text has no usage chunk: the credits of the answer are unknown, not zero.
        expect(answer.creditsUsed, label).toBe(dialect === 'text' ? null : json.creditsUsed);
        // The usage chunk comes after the finish event (interface.md §6).
        if (dialect !== 'text') expect(answer.marks.usageAt, label).toBeGreaterThanOrEqual(answer.marks.finishAt!);
        if (dialect !== 'text' || !split) expect(answer.chunks.length, label).toBeGreaterThan(dialect === 'text' ? 0 : 1);
        for (let i = 1; i < answer.chunks.length; i++) expect(answer.chunks[i]!.atMs).toBeGreaterThanOrEqual(answer.chunks[i - 1]!.atMs);
        expect(answer.marks.headersAt).not.toBeNull();
        expect(answer.marks.firstChunkAt).toBeGreaterThanOrEqual(answer.marks.headersAt!);
      }
    }
  });

  it.each(STREAM_DIALECTS)('continue in %s, streamed by GET and POST, equals the JSON turn', async (dialect) => {
    const streaming = clientOf({ headers: { [DIALECT_HEADER]: dialect, [SPLIT_HEADER]: 'true', [CRLF_HEADER]: 'true' } });
    const question = QUESTIONS[1]!;
    const { conversationId } = await streaming.createConversation(target);
    for (const method of ['post', 'get'] as const) {
      const answer = await streaming.continueConversation({ ...question, conversationId, method, streaming: true, saveHistory: false });
      expect(answer.dialect).toBe(dialect);
      expect(bytesOf(answer.text)).toBe(bytesOf(reference.get(question.prompt)!.text));
    }
  });
});

/** The raw bytes of one streamed answer, as the service wrote them. */
async function rawStream(dialect: StreamDialect): Promise<{ bytes: Uint8Array; headers: Record<string, string | string[] | undefined> }> {
  const question = QUESTIONS[1]!;
  const query = new URLSearchParams({ board_id: target.boardId, chat_id: target.chatId });
  const response = await request(`${service.url}/api/conversation?${query.toString()}`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json', [DIALECT_HEADER]: dialect, [CRLF_HEADER]: 'true' },
    body: JSON.stringify({ prompt: question.prompt, additional_context: question.additionalContext, streaming: 'true', include_usage: true }),
  });
  expect(response.statusCode).toBe(200);
  return { bytes: new Uint8Array(await response.body.arrayBuffer()), headers: response.headers };
}

async function* pieces(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
    yield bytes.subarray(at, cut);
    at = cut;
  }
  yield bytes.subarray(at);
}

describe('any chunk boundary at all (property)', () => {
  it.each(STREAM_DIALECTS)('%s: the client decoder gives the same text wherever the bytes are cut', async (dialect) => {
    const { bytes, headers } = await rawStream(dialect);
    const expected = reference.get(QUESTIONS[1]!.prompt)!.text;
    const contentType = String(headers['content-type']);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 40 }), async (cuts) => {
        let text = '';
        for await (const event of decodeStream(pieces(bytes, cuts), { contentType, headers })) if (event.kind === 'chunk') text += event.text;
        expect(text).toBe(expected);
      }),
      { numRuns: 60 },
    );
  });
});
