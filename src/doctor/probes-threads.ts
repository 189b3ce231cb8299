// Probes of conversation threads (create, continue, save_history, an unknown id) and of refusals.
import type { Conversation } from '../protocol/index.js';
import { CONVERSATION_DEFAULT_NAME_PREFIX, ERROR_VALIDATION } from '../protocol/index.js';
import { conforms, differs, notTested, type Attempt, type DoctorContext } from './context.js';
import { errorBodyOf, excerptOf, failureWords, refusalProblem } from './observe.js';
import { HELLO, NUMBER_CONTEXT, NUMBER_QUESTION, answerWords, names } from './probes-answers.js';
import type { Probe } from './probe.js';
import type { ProbeName } from './types.js';
import type { AnswerResult } from '../domain/index.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
/** A context the thread's second turn is given and must not keep (save_history false). */
const OTHER_CONTEXT = 'My favourite number is 777.';
const NO_SUCH = 'kbbench-doctor-no-such';
const UNKNOWN_CONVERSATION = '00000000-0000-4000-8000-000000000000';

const create = (ctx: DoctorContext): Promise<Attempt<Conversation>> =>
  ctx.share('create', async () => {
    const { boardId, chatId } = await ctx.askTarget();
    const client = ctx.accepted();
    return ctx.send('POST /api/conversation/new (threads.create)', () => client.createConversation({ boardId, chatId }));
  });

interface Turns {
  first: Attempt<AnswerResult>;
  second: Attempt<AnswerResult>;
  third: Attempt<AnswerResult>;
}

/** Three turns: 444 as context (saved), 777 as context with save_history false, then the question alone. */
const turns = (ctx: DoctorContext): Promise<Turns> =>
  ctx.share('turns', async () => {
    const created = await create(ctx);
    if (!created.ok) throw new NotTestedTurns('the conversation could not be created (threads.create)');
    const conversationId = created.value.conversationId;
    const first = await ctx.answer('threads.continue', { conversationId, prompt: NUMBER_QUESTION, additionalContext: NUMBER_CONTEXT });
    const second = await ctx.answer('threads.save_history', { conversationId, prompt: NUMBER_QUESTION, additionalContext: OTHER_CONTEXT, saveHistory: false });
    const third = await ctx.answer('threads.continue', { conversationId, prompt: NUMBER_QUESTION });
    return { first, second, third };
  });

class NotTestedTurns extends Error {}

async function judgeTurns(ctx: DoctorContext, judge: (t: Turns) => ReturnType<typeof conforms>) {
  try {
    return judge(await turns(ctx));
  } catch (error) {
    if (error instanceof NotTestedTurns) return notTested(error.message);
    throw error;
  }
}

function refusal(run: (ctx: DoctorContext) => Promise<Attempt<unknown>>): Probe['run'] {
  return async (ctx) => {
    const attempt = await run(ctx);
    if (attempt.ok) {
      const value = attempt.value as Partial<AnswerResult>;
      return differs(`accepted: ${'text' in value ? answerWords(value as AnswerResult) : excerptOf(JSON.stringify(value))}`);
    }
    const problem = refusalProblem(attempt.error);
    return problem ? differs(problem) : conforms(failureWords(attempt.error));
  };
}

const REFUSED = 'not shown (interface.md §7); kbbench expects a 4xx with a JSON {error} body, nothing charged';

export const THREAD_PROBES = {
  'threads.create': {
    documented: `POST /api/conversation/new without a name: {conversationId (UUID), name "${CONVERSATION_DEFAULT_NAME_PREFIX}…", createdAt (ISO), boardId, chatId} (interface.md 4.5)`,
    run: async (ctx) => {
      const created = await create(ctx);
      if (!created.ok) return differs(failureWords(created.error));
      const c = created.value;
      const { boardId, chatId } = await ctx.askTarget();
      const problems = [
        UUID.test(c.conversationId) ? null : `conversationId ${JSON.stringify(c.conversationId)} is not a UUID`,
        c.name.startsWith(CONVERSATION_DEFAULT_NAME_PREFIX) ? null : `name ${JSON.stringify(c.name)}`,
        ISO_TIME.test(c.createdAt) && !Number.isNaN(Date.parse(c.createdAt)) ? null : `createdAt ${JSON.stringify(c.createdAt)} is not ISO`,
        c.boardId === boardId && c.chatId === chatId ? null : `boardId/chatId ${c.boardId}/${c.chatId}, asked ${boardId}/${chatId}`,
      ].filter((p): p is string => p !== null);
      return problems.length ? differs(problems.join('; ')) : conforms(`${c.conversationId}, "${c.name}", ${c.createdAt}`);
    },
  },
  'threads.continue': {
    documented: 'POST /api/conversation/{id}: a later turn keeps the thread\'s context (public-facts.md: a follow-up still knows 444)',
    run: (ctx) =>
      judgeTurns(ctx, ({ first, third }) => {
        if (!first.ok) return differs(`turn 1: ${failureWords(first.error)}`);
        if (!third.ok) return differs(`turn 3: ${failureWords(third.error)}`);
        if (!names(first.value.text, '444')) return notTested(`turn 1 (444 as additional_context) did not name 444: "${excerptOf(first.value.text)}"`);
        return names(third.value.text, '444') ? conforms('turn 3 still names 444') : differs(`turn 3 does not name 444: "${excerptOf(third.value.text)}"`);
      }),
  },
  'threads.save_history': {
    documented: 'save_history false: that exchange is not saved in the history (interface.md 4.3)',
    run: (ctx) =>
      judgeTurns(ctx, ({ second, third }) => {
        if (!second.ok) return differs(`turn 2: ${failureWords(second.error)}`);
        if (!names(second.value.text, '777')) return notTested(`turn 2 (777 as additional_context) did not name 777: "${excerptOf(second.value.text)}"`);
        if (!third.ok) return notTested(`turn 3 failed: ${failureWords(third.error)}`);
        return names(third.value.text, '777') ? differs(`turn 3 names 777, from the unsaved turn 2: "${excerptOf(third.value.text)}"`) : conforms('turn 3 does not name turn 2\'s 777');
      }),
  },
  'threads.unknown_conversation': {
    documented: `an unknown conversation id: ${REFUSED}`,
    run: refusal((ctx) => ctx.answer('threads.unknown_conversation', { conversationId: UNKNOWN_CONVERSATION, prompt: HELLO })),
  },
  'errors.unknown_board': {
    documented: `an unknown board: ${REFUSED}`,
    run: refusal(async (ctx) => ctx.answer('errors.unknown_board', { prompt: HELLO }, { ids: { boardId: `${NO_SUCH}-board`, chatId: (await ctx.askTarget()).chatId } })),
  },
  'errors.unknown_chat': {
    documented: `an unknown chat: ${REFUSED}`,
    run: refusal(async (ctx) => ctx.answer('errors.unknown_chat', { prompt: HELLO }, { ids: { boardId: (await ctx.askTarget()).boardId, chatId: `${NO_SUCH}-chat` } })),
  },
  'errors.validation': {
    documented: `create without chatId: {error: "${ERROR_VALIDATION}", message, details: {…}} (interface.md §7; status not shown, 4xx expected)`,
    run: async (ctx) => {
      const { boardId } = await ctx.askTarget();
      const client = ctx.accepted();
      // chatId left out on purpose: JSON.stringify drops it, so the body has none.
      const attempt = await ctx.send('POST /api/conversation/new without chatId (errors.validation)', () => client.createConversation({ boardId, chatId: undefined as unknown as string }));
      if (attempt.ok) return differs(`accepted: ${excerptOf(JSON.stringify(attempt.value))}`);
      const problem = refusalProblem(attempt.error);
      if (problem) return differs(problem);
      const body = errorBodyOf(attempt.error)!;
      const shape = [
        body.error === ERROR_VALIDATION ? null : `error ${JSON.stringify(body.error)}`,
        typeof body.message === 'string' ? null : 'no message',
        typeof body.details === 'object' && body.details !== null && !Array.isArray(body.details) ? null : 'details is not an object',
      ].filter((p): p is string => p !== null);
      return shape.length ? differs(`${shape.join('; ')}: ${failureWords(attempt.error)}`) : conforms(failureWords(attempt.error));
    },
  },
  'errors.unknown_model': {
    documented: `a model no description lists: ${REFUSED}`,
    run: refusal((ctx) => ctx.answer('errors.unknown_model', { prompt: HELLO, model: `${NO_SUCH}-model` })),
  },
} as const satisfies Partial<Record<ProbeName, Probe>>;
