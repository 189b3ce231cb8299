// What every probe shares: one client per key form, the request and credit bound, the answers seen
// in order (for the credit arithmetic) and the exchanges probes share (one stream, several rows).
import { createClient, type KbClient, type StreamEvent } from '../client/index.js';
import type { AnswerResult, AskRequest, ContinueRequest } from '../domain/index.js';
import { HttpError, KbError } from '../domain/index.js';
import type { Board, ChatList, StreamDialect } from '../protocol/index.js';
import { PLANNED_REQUESTS } from './plan.js';
import type { AuthForm, ProbeOutcome } from './types.js';

/** The most requests doctor sends: the plan's (plan.ts); a bug in a probe cannot make it send more. */
export const MAX_REQUESTS = PLANNED_REQUESTS.length;
/** Before the first answer says what one costs: public-facts' example answer cost 0.04975. */
export const FIRST_ANSWER_ESTIMATE = 0.05;
export const DEFAULT_MAX_CREDITS = 1;

/** A probe that cannot run says why: its row is `not_tested` with this reason. */
export class NotTested extends Error {}

/** The bound would be passed: this probe and every later one that sends are not tested. */
export class BoundReached extends NotTested {}

export type Attempt<T> = { ok: true; value: T } | { ok: false; error: KbError };

export interface AnswerSeen {
  probe: string;
  model: string;
  creditsUsed: number | null;
  creditsRemaining: number | null;
  /** The request failed: what it cost, if anything, is not known. */
  failed?: true;
}

/** An ask (or, with a conversationId, a continue) without its board and chat: the context adds them. */
export type AnswerAsk = Omit<AskRequest, 'boardId' | 'chatId'> & Partial<Pick<ContinueRequest, 'conversationId' | 'saveHistory'>>;

export interface DoctorTarget {
  baseUrl: string;
  apiKey: string;
  boardId?: string;
  chatId?: string;
  maxCredits: number;
  timeoutMs: number;
  /** Called before each request is sent: `GET /api/boards (x-api-key header)`. */
  onRequest?(label: string): void;
}

/** A form the service never reads: the missing-key probe sends an empty value under it, and nothing else. */
const NO_KEY_HEADER = 'x-kbbench-doctor-no-key';

export const AUTH_FORMS = {
  query: { auth: 'query' },
  header_api_key: { auth: 'header', header: 'api_key' },
  header_x_api_key: { auth: 'header', header: 'x-api-key' },
} as const satisfies Record<string, AuthForm>;

export function formKey(form: AuthForm): string {
  return form.auth === 'query' ? 'query' : `header:${form.header ?? 'x-api-key'}`;
}

export function describeForm(form: AuthForm): string {
  return form.auth === 'query' ? 'api_key query parameter' : `${form.header ?? 'x-api-key'} header`;
}

export class DoctorContext {
  requests = 0;
  creditsSpent = 0;
  /** The form answers are asked in: the first the service accepted (auth probes decide). */
  form: AuthForm | null = null;
  /** The stream dialect the stream probe detected. */
  dialect: StreamDialect | null = null;
  readonly answers: AnswerSeen[] = [];
  /** The first bound reached, when one was: the probes after it are not tested. */
  stoppedBy: string | undefined;
  private readonly clients = new Map<string, KbClient>();
  private readonly shared = new Map<string, Promise<unknown>>();

  constructor(readonly target: DoctorTarget) {}

  private clientFor(key: string, apiKey: string, form: AuthForm): KbClient {
    let client = this.clients.get(key);
    if (!client) {
      const header = form.auth === 'header' ? { apiKeyHeader: form.header ?? 'x-api-key' } : {};
      client = createClient({ baseUrl: this.target.baseUrl, apiKey, auth: form.auth, timeoutMs: this.target.timeoutMs, ...header });
      this.clients.set(key, client);
    }
    return client;
  }

  /** A client sending the key in `form`; `key: 'wrong'` a key the service cannot know, `'none'` no key at all. */
  client(form: AuthForm, key: 'right' | 'wrong' | 'none' = 'right'): KbClient {
    if (key === 'none') return this.clientFor('none', '', { auth: 'header', header: NO_KEY_HEADER });
    const apiKey = key === 'wrong' ? `kbbench-doctor-wrong-${'0'.repeat(24)}` : this.target.apiKey;
    return this.clientFor(`${key}:${formKey(form)}`, apiKey, form);
  }

  /** The client answers are asked with; not tested when no key form was accepted. */
  accepted(): KbClient {
    if (!this.form) throw new NotTested('no key form was accepted (auth rows)');
    return this.client(this.form);
  }

  /** One exchange whose result several probes read: sent once, by whichever probe asks first. */
  share<T>(key: string, send: () => Promise<T>): Promise<T> {
    let pending = this.shared.get(key) as Promise<T> | undefined;
    if (!pending) {
      pending = send();
      this.shared.set(key, pending);
    }
    return pending;
  }

  /** Why the probes stopped early: the first bound reached. */
  private bound(why: string): BoundReached {
    this.stoppedBy ??= why;
    return new BoundReached(why);
  }

  has(key: string): boolean {
    return this.shared.has(key);
  }

  /** Counts a request against the bound, then sends it; a failure the client typed comes back as data. */
  async send<T>(label: string, exchange: () => Promise<T>): Promise<Attempt<T>> {
    if (this.requests >= MAX_REQUESTS) throw this.bound(`the request bound (${MAX_REQUESTS}) was reached`);
    this.requests++;
    this.target.onRequest?.(label);
    try {
      return { ok: true, value: await exchange() };
    } catch (error) {
      if (error instanceof KbError) return { ok: false, error };
      throw error;
    }
  }

  /** What the next answer is expected to cost: the dearest seen so far, else public-facts' example. */
  answerEstimate(): number {
    const seen = this.answers.map((a) => a.creditsUsed ?? 0);
    return Math.max(FIRST_ANSWER_ESTIMATE, ...seen);
  }

  /** An answer, sent only while the credit bound allows one more; its credits are kept in order. */
  async answer(probe: string, request: AnswerAsk, options: { ids?: { boardId: string; chatId: string }; events?: StreamEvent[] } = {}): Promise<Attempt<AnswerResult>> {
    const { ids, events } = options;
    const estimate = this.answerEstimate();
    if (this.creditsSpent + estimate > this.target.maxCredits + 1e-9) {
      throw this.bound(`--max-credits ${this.target.maxCredits} would be passed (${round5(this.creditsSpent)} spent, about ${round5(estimate)} an answer)`);
    }
    const client = this.accepted();
    const where = ids ?? (await this.askTarget());
    const full = { ...where, ...request };
    const method = request.method === 'get' ? 'GET' : 'POST';
    const path = request.conversationId === undefined ? '/api/conversation' : '/api/conversation/{id}';
    const attempt = await this.send(`${method} ${path} (${probe})`, async () => {
      if (request.conversationId !== undefined) return client.continueConversation({ ...full, conversationId: request.conversationId });
      if (!events) return client.ask(full);
      // The events in arrival order: whether the usage chunk came after `finish` is an order, not a time.
      const stream = client.askEvents(full);
      for (;;) {
        const step = await stream.next();
        if (step.done) return step.value;
        events.push(step.value);
      }
    });
    const model = request.model ?? 'the default model';
    if (attempt.ok) {
      const { creditsUsed, creditsRemaining } = attempt.value;
      this.creditsSpent += creditsUsed ?? estimate;
      this.answers.push({ probe, model, creditsUsed, creditsRemaining });
    } else {
      // Only a refusal (4xx, 5xx) is known to cost nothing: an unreadable 2xx, a cut stream or a
      // timeout may have been charged, so the bound counts it at the estimate.
      const status = attempt.error instanceof HttpError ? attempt.error.statusCode : 0;
      if (status < 400) this.creditsSpent += estimate;
      // Nor is what it took known: the credit arithmetic starts again after it.
      this.answers.push({ probe, model, creditsUsed: null, creditsRemaining: null, failed: true });
    }
    return attempt;
  }

  /** The boards listing in the accepted form (the x-api-key probe's, when that form is it). */
  boards(): Promise<Attempt<Board[]>> {
    const client = this.accepted();
    const form = this.form!;
    return this.share(`boards:${formKey(form)}`, () => this.send(`GET /api/boards (${describeForm(form)})`, () => client.listBoards()));
  }

  chats(boardId: string): Promise<Attempt<ChatList['data']>> {
    const client = this.accepted();
    return this.share(`chats:${boardId}`, () => this.send('GET /api/chats', () => client.listChats(boardId)));
  }

  /** The board and chat answers go to: the flags', else the first board listed and its first chat. */
  askTarget(): Promise<{ boardId: string; chatId: string }> {
    return this.share('target', async () => {
      const boardId = this.target.boardId ?? (await this.firstBoard());
      const chatId = this.target.chatId ?? (await this.firstChat(boardId));
      return { boardId, chatId };
    });
  }

  private async firstBoard(): Promise<string> {
    const boards = await this.boards();
    const first = boards.ok ? boards.value[0] : undefined;
    if (!first) throw new NotTested('no board to ask (none listed; pass --board and --chat)');
    return first.id;
  }

  private async firstChat(boardId: string): Promise<string> {
    const chats = await this.chats(boardId);
    const first = chats.ok ? chats.value[0] : undefined;
    if (!first) throw new NotTested(`no chat to ask on board ${boardId} (none listed; pass --chat)`);
    return first.id;
  }

  async close(): Promise<void> {
    await Promise.all([...this.clients.values()].map((client) => client.close()));
  }
}

export const round5 = (value: number): number => Math.round(value * 1e5) / 1e5;

export const conforms = (observed: string): ProbeOutcome => ({ status: 'conforms', observed });
export const differs = (observed: string): ProbeOutcome => ({ status: 'differs', observed });
export const notTested = (why: string): ProbeOutcome => ({ status: 'not_tested', observed: why });
