// Judge checks ask a chat of the service (and `similar` an embeddings endpoint when given), under the run's timeout and through the one retry path.
import { runChecks, type JudgeRequest } from '../checks/index.js';
import type { KbClient } from '../client/index.js';
import { fetchEmbeddings } from '../client/embeddings.js';
import { AbortedError } from '../domain/errors.js';
import { DEFAULT_BACKOFF, withRetries, type CheckFn } from '../runner/index.js';
import { retryPolicyOf } from './preflight.js';
import type { RunSessionOptions } from './options.js';
import type { ResolvedTarget } from './target.js';

/** A hard stop during a judge is a cancellation (resume grades the answer again), never a failed check. */
export function judgePort(client: KbClient, target: ResolvedTarget, options: Pick<RunSessionOptions, 'timeoutMs' | 'retries' | 'maxRetryWaitMs' | 'embeddings'>): CheckFn {
  // The request's own signal: it also carries the run's cancel when the run stops itself.
  const ask = (request: JudgeRequest, signal: AbortSignal) =>
    client.ask({
      boardId: request.board_id ?? target.boardId, chatId: request.chat_id ?? target.chatId, prompt: request.prompt,
      ...(request.model ? { model: request.model } : {}), streaming: false, signal, timeoutMs: options.timeoutMs,
    });
  const embeddings = options.embeddings && { ...options.embeddings, timeoutMs: options.timeoutMs };
  return async (specs, subject, requestSignal) => {
    const results = await runChecks(specs, subject, {
      judge: async (request) => {
        const answer = await withRetries(() => ask(request, requestSignal), retryPolicyOf({ ...DEFAULT_BACKOFF, retries: options.retries }, options), requestSignal);
        return { text: answer.text, credits_used: answer.creditsUsed };
      },
      // Not retried: a failed embedding makes the check say "not judged", it never guesses.
      ...(embeddings ? { embed: (texts: string[]) => fetchEmbeddings(embeddings, texts, requestSignal) } : {}),
    });
    if (requestSignal.aborted) throw new AbortedError('cancelled while grading');
    return results;
  };
}
