// Probes of the key's three forms, a missing and a wrong key, and the two listings.
import { ERROR_UNAUTHORIZED } from '../protocol/index.js';
import { AUTH_FORMS, conforms, describeForm, differs, formKey, notTested } from './context.js';
import { failureWords, refusalProblem, errorBodyOf } from './observe.js';
import type { Probe } from './probe.js';
import type { AuthForm, ProbeName } from './types.js';

/** The boards listing in one key form: free, so it is what every auth probe asks. */
function formProbe(form: AuthForm, documented: string): Probe {
  return {
    documented,
    run: async (ctx) => {
      const label = `GET /api/boards (${describeForm(form)})`;
      const attempt = await ctx.share(`boards:${formKey(form)}`, () => ctx.send(label, () => ctx.client(form).listBoards()));
      if (!attempt.ok) return differs(`refused: ${failureWords(attempt.error)}`);
      // The first form accepted is the one answers are asked in: x-api-key (the client's default),
      // then the query (run's --auth query), then the api_key header (only a profile sets it).
      ctx.form ??= form;
      return conforms(`HTTP 200, ${attempt.value.length} board(s) listed`);
    },
  };
}

function refusedKeyProbe(key: 'none' | 'wrong', documented: string): Probe {
  return {
    documented,
    run: async (ctx) => {
      const form = ctx.form ?? AUTH_FORMS.header_x_api_key;
      const label = key === 'none' ? 'GET /api/boards (no key)' : `GET /api/boards (a wrong key, ${describeForm(form)})`;
      const attempt = await ctx.send(label, () => ctx.client(form, key).listBoards());
      if (attempt.ok) return differs(`HTTP 200: the boards were listed (${attempt.value.length}) without a valid key`);
      const problem = refusalProblem(attempt.error, 401);
      if (problem) return differs(problem);
      const body = errorBodyOf(attempt.error);
      if (body?.error !== ERROR_UNAUTHORIZED) return differs(`error is ${JSON.stringify(body?.error)}, not "${ERROR_UNAUTHORIZED}": ${failureWords(attempt.error)}`);
      return conforms(failureWords(attempt.error));
    },
  };
}

const REFUSED = `HTTP 401 with {error: "${ERROR_UNAUTHORIZED}"} (interface.md §7 gives the body for list boards; the status is not shown, 401 is the one named Unauthorized)`;

export const AUTH_PROBES = {
  'auth.header_x_api_key': formProbe(AUTH_FORMS.header_x_api_key, 'accepted as the x-api-key header (public-facts.md: the reference pages send it)'),
  'auth.query': formProbe(AUTH_FORMS.query, 'accepted as the api_key query parameter (interface.md §5.2)'),
  'auth.header_api_key': formProbe(AUTH_FORMS.header_api_key, 'accepted as the api_key header (interface.md §5.3)'),
  'auth.missing_key': refusedKeyProbe('none', `no key: ${REFUSED}`),
  'auth.wrong_key': refusedKeyProbe('wrong', `a wrong key: ${REFUSED}`),
  'listing.boards': {
    documented: 'GET /api/boards: {data: [{id, name}]}, ids opaque strings (interface.md 4.6)',
    run: async (ctx) => {
      if (!ctx.form) return notTested('no key form was accepted');
      const boards = await ctx.boards();
      if (!boards.ok) return differs(failureWords(boards.error));
      const ids = boards.value.map((b) => b.id);
      return conforms(`{data: [${boards.value.length} board(s)]}${ids.length ? `, e.g. ${ids.slice(0, 2).join(', ')}` : ''}`);
    },
  },
  'listing.chats': {
    documented: 'GET /api/chats?board_id=B: {data: [{id, conversations: [{id, name}]}]} (public-facts.md)',
    run: async (ctx) => {
      const { boardId, chatId } = await ctx.askTarget();
      const chats = await ctx.chats(boardId);
      if (!chats.ok) return differs(failureWords(chats.error));
      const listed = chats.value.find((c) => c.id === chatId);
      const threads = chats.value.reduce((sum, c) => sum + c.conversations.length, 0);
      if (!listed) return differs(`chat ${chatId} is not among the ${chats.value.length} listed on board ${boardId}`);
      return conforms(`${chats.value.length} chat(s) on ${boardId}, ${threads} conversation(s) listed; ${chatId} among them`);
    },
  },
} as const satisfies Partial<Record<ProbeName, Probe>>;
