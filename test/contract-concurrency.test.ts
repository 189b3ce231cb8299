// The wire contract, part 4: many answers at once on one account, through the client, against the
// reference service with real (scaled) latencies so they interleave: credits stay exact, answers stay
// what they are alone, and threads answered side by side keep their own history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type KbClient } from '../src/client/index.js';
import type { AnswerResult, AskRequest } from '../src/domain/index.js';
import { startReferenceService, type RunningService } from '../src/server/index.js';

const target = { boardId: 'winter-frost-CJk4G', chatId: 'chatNode-patient-star-4uIJt' };
const PROMPTS = ['How long do customers have to ask for a refund?', 'Which plans do you offer?', 'Is my data encrypted?', 'How much does the Team plan cost?'];
const MODELS = ['gpt-4o-mini', 'gpt-4o', 'claude-sonnet-4-6'];
const PARALLEL = 96;

let service: RunningService;
let client: KbClient;

/** Credits as integer units of 0.00001: the service's own resolution. */
const units = (credits: number | null): number => Math.round((credits ?? Number.NaN) * 100_000);

beforeAll(async () => {
  // Scaled latencies: answers overlap for tens of milliseconds, in a different order each time;
  // no per-model slot limit, so all of them are in flight at once rather than queued or refused.
  service = await startReferenceService({ latencyScale: 0.02, seed: 5, slots: 0 });
  client = createClient({ baseUrl: service.url, apiKey: service.keys[0] ?? '' });
});
afterAll(async () => {
  await client.close();
  await service.close();
});

function question(i: number): AskRequest {
  const prompt = PROMPTS[i % PROMPTS.length] ?? '';
  const model = MODELS[i % MODELS.length] ?? '';
  return { ...target, prompt, model, method: i % 4 < 2 ? 'post' : 'get', streaming: i % 2 === 0, includeUsage: true };
}

describe('many answers at once on one account', () => {
  it('debits exactly the sum of credits_used, and gives each question the text it gets alone', async () => {
    const alone = new Map<string, string>();
    for (let i = 0; i < PROMPTS.length * MODELS.length; i++) {
      const q = question(i);
      alone.set(`${q.prompt}|${q.model}`, (await client.ask({ ...q, streaming: false })).text);
    }
    const before = await client.ask({ ...target, prompt: PROMPTS[0] ?? '', model: 'gpt-4o-mini' });
    const answers: AnswerResult[] = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => client.ask(question(i))));
    const after = await client.ask({ ...target, prompt: PROMPTS[0] ?? '', model: 'gpt-4o-mini' });
    const spent = answers.reduce((sum, answer) => sum + units(answer.creditsUsed), 0) + units(after.creditsUsed);
    expect(units(before.creditsRemaining) - spent).toBe(units(after.creditsRemaining));
    answers.forEach((answer, i) => {
      const q = question(i);
      expect(answer.text).toBe(alone.get(`${q.prompt}|${q.model}`));
    });
  });

  it('keeps a thread’s turns apart from other threads answered at the same time', async () => {
    const threads = await Promise.all(
      ['444', '777', '123'].map(async (number) => {
        const { conversationId } = await client.createConversation(target);
        await client.continueConversation({ ...target, conversationId, prompt: `My favourite number is ${number}.` });
        return { conversationId, number };
      }),
    );
    const replies = await Promise.all(
      threads.map(({ conversationId }) => client.continueConversation({ ...target, conversationId, prompt: 'What is my favourite number?', streaming: true })),
    );
    replies.forEach((reply, i) => {
      const own = threads[i]?.number ?? '';
      expect(reply.text).toContain(own);
      for (const other of threads) if (other.number !== own) expect(reply.text).not.toContain(other.number);
    });
  });
});
