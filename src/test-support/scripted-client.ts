// A scripted ChatClient for unit tests of what sits on the client port (runner, retry layer): each
// ask or turn answers what the script says; the wire itself is covered by client/ and e2e tests.
import type { AnswerResult } from '../domain/answer.js';
import type { AskRequest, ChatClient, ContinueRequest } from '../domain/client.js';

export type Script = (request: AskRequest | ContinueRequest, n: number) => Promise<AnswerResult>;

/** `conversation:prompt` (`ask:prompt` for a question alone) of every request, in order. */
export type ScriptedClient = ChatClient & { log: string[] };

export function scriptedClient(script: Script): ScriptedClient {
  const log: string[] = [];
  let n = 0;
  let conversations = 0;
  const handle = async (request: AskRequest | ContinueRequest): Promise<AnswerResult> => {
    const id = 'conversationId' in request ? request.conversationId : 'ask';
    log.push(`${id}:${request.prompt}`);
    return script(request, n++);
  };
  return {
    log,
    ask: handle,
    continueConversation: handle,
    createConversation: async (r) => ({ conversationId: `c${++conversations}`, name: r.name ?? 'x', createdAt: '', boardId: r.boardId, chatId: r.chatId }),
    listBoards: async () => [],
    listChats: async () => [],
    close: async () => undefined,
  };
}

/** A script whose first requests fail with `failures`, one each, and the rest answer `text` at `clock.now()`. */
export function failingFirst(failures: readonly Error[], clock: { now(): number }, text = 'fine'): Script {
  return async (_request, n) => {
    const failure = failures[n];
    if (failure) throw failure;
    return scriptedAnswer(text, clock.now());
  };
}

/** A streamed answer that ended at `endMs` (on the test's clock), its events `latencyMs` apart in all. */
export function scriptedAnswer(text: string, endMs: number, credits = 0.5, latencyMs = 5): AnswerResult {
  const step = latencyMs / 5;
  return {
    status: 200, text, streamed: true, dialect: 'ui-sse', creditsUsed: credits, creditsRemaining: 100,
    finished: true, chunks: [{ text, atMs: endMs }],
    marks: {
      sentAt: endMs - latencyMs, headersAt: endMs - 4 * step, firstChunkAt: endMs - 3 * step, lastChunkAt: endMs - 2 * step,
      finishAt: endMs - step, usageAt: endMs, endAt: endMs,
    },
  };
}
