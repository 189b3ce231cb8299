// Probes of answers: POST against GET, additional_context, plaintext, and one stream read event by event.
import type { StreamEvent } from '../client/index.js';
import type { AnswerResult } from '../domain/index.js';
import { STREAM_DIALECTS, type StreamDialect } from '../protocol/index.js';
import { conforms, differs, notTested, type Attempt, type DoctorContext } from './context.js';
import { excerptOf, failureWords } from './observe.js';
import type { Probe } from './probe.js';
import type { ProbeName } from './types.js';

export const HELLO = 'Hello';
export const NUMBER_QUESTION = 'What is my favourite number?';
/** public-facts.md's own example: the answer names 444. */
export const NUMBER_CONTEXT = 'My favourite number is 444.';
/** The model of the streamed answer: a second model, so credits are seen for two. */
export const STREAM_MODEL = 'gpt-4o-mini';

/** Markup a plain-text answer would not carry: bold, headings, list bullets, code, links. */
const MARKDOWN = /\*\*[^*\n]+\*\*|__[^_\n]+__|^#{1,6}\s|^\s*[-*+]\s|`|\[[^\]\n]+\]\([^)\n]+\)/m;

export const hasMarkdown = (text: string): boolean => MARKDOWN.test(text);
export const names = (text: string, number: string): boolean => new RegExp(`(^|\\D)${number}(\\D|$)`).test(text);

export function answerWords(answer: AnswerResult): string {
  return `HTTP ${answer.status} {text: "${excerptOf(answer.text, 40)}", credits_used: ${answer.creditsUsed}, credits_remaining: ${answer.creditsRemaining}}`;
}

const askPost = (ctx: DoctorContext) => ctx.share('ask.post', () => ctx.answer('ask.post', { prompt: HELLO, method: 'post' }));
const askGet = (ctx: DoctorContext) => ctx.share('ask.get', () => ctx.answer('ask.get', { prompt: HELLO, method: 'get' }));
const askWithContext = (ctx: DoctorContext) =>
  ctx.share('ask.context', () => ctx.answer('ask.additional_context', { prompt: NUMBER_QUESTION, additionalContext: NUMBER_CONTEXT }));
/** The same question without the context, asking for plain text: one answer, two rows. */
const askPlain = (ctx: DoctorContext) => ctx.share('ask.plain', () => ctx.answer('ask.plaintext', { prompt: NUMBER_QUESTION, plaintext: true }));

interface Streamed {
  attempt: Attempt<AnswerResult>;
  events: StreamEvent[];
}

const askStream = (ctx: DoctorContext): Promise<Streamed> =>
  ctx.share('stream', async () => {
    const events: StreamEvent[] = [];
    const attempt = await ctx.answer('stream', { prompt: HELLO, model: STREAM_MODEL, streaming: true, includeUsage: true }, { events });
    if (attempt.ok && attempt.value.streamed) ctx.dialect = attempt.value.dialect as StreamDialect;
    return { attempt, events };
  });

/** A JSON answer where JSON was asked: text and both credit fields as numbers. */
function jsonAnswerProblem(answer: AnswerResult): string | null {
  if (answer.streamed) return `a ${answer.dialect} stream came back where JSON was asked`;
  if (answer.creditsUsed === null || answer.creditsRemaining === null) return `credits missing: ${answerWords(answer)}`;
  return null;
}

/** The streamed answer, or why the stream rows cannot be judged (the dialect row says what went wrong). */
async function streamed(ctx: DoctorContext): Promise<{ answer: AnswerResult; kinds: string[] }> {
  const { attempt, events } = await askStream(ctx);
  if (!attempt.ok) throw new NotJudged('the streamed answer failed (stream.dialect)');
  if (!attempt.value.streamed) throw new NotJudged('no stream came back (stream.dialect)');
  return { answer: attempt.value, kinds: events.map((e) => e.kind) };
}

class NotJudged extends Error {}

async function judgeStream(ctx: DoctorContext, judge: (answer: AnswerResult, kinds: string[]) => ReturnType<Probe['run']> | Awaited<ReturnType<Probe['run']>>) {
  try {
    const { answer, kinds } = await streamed(ctx);
    return await judge(answer, kinds);
  } catch (error) {
    if (error instanceof NotJudged) return notTested(error.message);
    throw error;
  }
}

const TEXT_HAS_NO_EVENTS = 'a plain-text stream has no events: a finish event or a usage chunk cannot be told apart from the text';

export const ANSWER_PROBES = {
  'ask.post': {
    documented: 'POST /api/conversation: JSON {text, credits_used, credits_remaining} (interface.md 4.1)',
    run: async (ctx) => {
      const post = await askPost(ctx);
      if (!post.ok) return differs(failureWords(post.error));
      const problem = jsonAnswerProblem(post.value);
      return problem ? differs(problem) : conforms(answerWords(post.value));
    },
  },
  'ask.get': {
    documented: 'GET /api/conversation: equivalent to POST, the same fields and credits (interface.md 4.2)',
    run: async (ctx) => {
      const [post, get] = [await askPost(ctx), await askGet(ctx)];
      if (!get.ok) return differs(`GET: ${failureWords(get.error)}${post.ok ? '; POST answered' : ''}`);
      const problem = jsonAnswerProblem(get.value);
      if (problem) return differs(`GET: ${problem}`);
      if (!post.ok) return conforms(`GET ${answerWords(get.value)} (POST failed: ask.post)`);
      if (post.value.status !== get.value.status) return differs(`GET HTTP ${get.value.status}, POST HTTP ${post.value.status}`);
      return conforms(`both HTTP ${get.value.status} with text and credits (GET ${get.value.creditsUsed}, POST ${post.value.creditsUsed})`);
    },
  },
  'ask.additional_context': {
    documented: `additional_context "${NUMBER_CONTEXT}" is used for that question and not stored (interface.md 4.1, public-facts.md's 444 example)`,
    run: async (ctx) => {
      const used = await askWithContext(ctx);
      if (!used.ok) return differs(failureWords(used.error));
      if (!names(used.value.text, '444')) return differs(`the answer does not name 444: "${excerptOf(used.value.text)}"`);
      const after = await askPlain(ctx);
      if (!after.ok) return notTested(`the question asked again failed: ${failureWords(after.error)}`);
      if (names(after.value.text, '444')) return differs(`asked again without it, the answer still names 444 (stored): "${excerptOf(after.value.text)}"`);
      return conforms('the answer names 444; asked again without it, it does not');
    },
  },
  'ask.plaintext': {
    documented: 'plaintext true: plain text instead of markdown (interface.md 4.1; the strings true/active turn it on)',
    run: async (ctx) => {
      const plain = await askPlain(ctx);
      if (!plain.ok) return differs(failureWords(plain.error));
      if (hasMarkdown(plain.value.text)) return differs(`markdown in a plaintext answer: "${excerptOf(plain.value.text)}"`);
      const post = await askPost(ctx);
      const marked = post.ok && hasMarkdown(post.value.text) ? ' (the markdown answer of ask.post had some)' : '';
      return conforms(`no markdown markup${marked}`);
    },
  },
  'stream.dialect': {
    documented: `streaming true: a stream, its format not documented; kbbench reads ${STREAM_DIALECTS.join(', ')} (public-facts.md: detect it)`,
    run: async (ctx) => {
      const { attempt } = await askStream(ctx);
      if (!attempt.ok) return differs(failureWords(attempt.error));
      const answer = attempt.value;
      if (!answer.streamed) return differs('asked to stream, it answered one JSON body');
      if (answer.text === '') return differs(`a ${answer.dialect} stream without text`);
      return conforms(`${answer.dialect}, ${answer.chunks.length} text chunk(s): "${excerptOf(answer.text, 40)}"`);
    },
  },
  'stream.first_chunk': {
    documented: 'not documented: a latency to measure (ttfc_ms)',
    run: (ctx) =>
      judgeStream(ctx, (answer) => {
        const { sentAt, headersAt, firstChunkAt } = answer.marks;
        if (firstChunkAt === null) return differs('no text chunk arrived');
        const headers = headersAt === null ? '' : `, headers after ${(headersAt - sentAt).toFixed(0)} ms`;
        return conforms(`first text after ${(firstChunkAt - sentAt).toFixed(0)} ms${headers}`);
      }),
  },
  'stream.finish': {
    documented: 'the stream contains a finish event (interface.md §6)',
    run: (ctx) =>
      judgeStream(ctx, (answer, kinds) => {
        if (answer.dialect === 'text') return notTested(TEXT_HAS_NO_EVENTS);
        return kinds.includes('finish') ? conforms(`finish seen (${answer.dialect})`) : differs(`the ${answer.dialect} stream ended without a finish event`);
      }),
  },
  'stream.usage': {
    documented: 'include_usage true: a final chunk {type: "usage", credits_used} after the finish event (interface.md §6)',
    run: (ctx) =>
      judgeStream(ctx, (answer, kinds) => {
        if (answer.dialect === 'text') return notTested(TEXT_HAS_NO_EVENTS);
        const usage = kinds.indexOf('usage');
        if (usage === -1) return differs('no usage chunk with include_usage true');
        if (usage < kinds.indexOf('finish')) return differs('the usage chunk came before the finish event');
        if (answer.creditsUsed === null) return differs(`a usage chunk without a usable credits_used${answer.creditsInvalid ? ` (${answer.creditsInvalid})` : ''}`);
        return conforms(`after finish: credits_used ${answer.creditsUsed}`);
      }),
  },
} as const satisfies Partial<Record<ProbeName, Probe>>;
