// Model-graded checks ask the run's grader (or a grader chat named on the check), under the run's
// timeout and through the one retry path; context checks get the suite's knowledge passages, and
// `similar` an embeddings endpoint when given.
import { inJudgeSample, notSampledReason, runChecks, type JudgeRequest } from '../checks/index.js';
import type { KbClient } from '../client/index.js';
import { fetchEmbeddings } from '../client/embeddings.js';
import { AbortedError } from '../domain/errors.js';
import { makeGrader, type Grader, type Knowledge } from '../graders/index.js';
import { DEFAULT_BACKOFF, type BackoffPolicy } from '../client/retry.js';
import { retryingGrader } from '../graders/retrying.js';
import { graderIdentity, openVerdictCache, verdictMemo } from '../graders/verdict-cache.js';
import type { CheckFn } from '../runner/index.js';
import { retryPolicyOf } from './preflight.js';
import type { RunConfig } from '../config/run-config.js';
import type { ResolvedTarget } from './target.js';

export interface GradingDeps {
  /** The run's grader (suite `grader:` or --grader-* flags); absent when no check needs one. */
  grader?: Grader;
  knowledge?: Knowledge;
}

type PortOptions = Pick<RunConfig, 'request' | 'grader' | 'plan'>;

/**
 * The grader of one request: a chat named on the check (with its own model), else the run's. Each
 * is made once (cached) with the retry layer around it.
 */
function graderFor(request: JudgeRequest, run: Grader | undefined, client: KbClient, target: ResolvedTarget, policy: BackoffPolicy, options: PortOptions, cache: Map<string, Grader>): Grader | undefined {
  if (request.chat_id === undefined) {
    if (run === undefined || request.model === undefined || run.model === request.model) return run;
  }
  const key = `${request.chat_id ?? ''}\u0000${request.board_id ?? ''}\u0000${request.model ?? ''}`;
  let grader = cache.get(key);
  if (grader === undefined) {
    grader = request.chat_id !== undefined
      ? retryingGrader(makeGrader(
          { kind: 'chat', chat_id: request.chat_id, ...(request.board_id ? { board_id: request.board_id } : {}), ...(request.model ? { model: request.model } : {}) },
          { client, boardId: target.boardId, timeoutMs: options.request.timeoutMs },
        ), policy)
      : run!.withModel(request.model!);
    cache.set(key, grader);
  }
  return grader;
}

/** A hard stop during a grading is a cancellation (resume grades the answer again), never a check not judged. */
export function judgePort(client: KbClient, target: ResolvedTarget, options: PortOptions, deps: GradingDeps = {}): CheckFn {
  const cache = new Map<string, Grader>();
  const policy = retryPolicyOf({ ...DEFAULT_BACKOFF, retries: options.request.retries }, options.request);
  const runGrader = deps.grader && retryingGrader(deps.grader, policy);
  const embeddings = options.grader.embeddings && { ...options.grader.embeddings, timeoutMs: options.request.timeoutMs };
  const grader = (request: JudgeRequest): Grader | undefined => graderFor(request, runGrader, client, target, policy, options, cache);
  const verdicts = options.grader.cacheDir === undefined ? undefined : verdictMemo(openVerdictCache(options.grader.cacheDir), (request) => {
    const chosen = grader(request);
    return chosen && graderIdentity(chosen, target, request);
  });
  const share = options.grader.judgeSample;
  return async (specs, subject, requestSignal) => {
    const sampledOut = share !== undefined && !inJudgeSample(subject.item_id ?? subject.prompt ?? subject.text, share, options.plan.seed);
    const results = await runChecks(specs, subject, {
      ...(sampledOut ? { notSampled: notSampledReason(share) } : {}),
      judge: async (request) => {
        const chosen = grader(request);
        if (chosen === undefined) throw new Error('no grader is named for this check');
        const answer = await chosen.ask(request.prompt, requestSignal);
        return { text: answer.text, credits_used: answer.credits_used, tokens: answer.tokens, grader: chosen.label };
      },
      graderLabel: (request) => grader(request)?.label,
      ...(verdicts ? { verdicts } : {}),
      ...(deps.knowledge ? { passages: deps.knowledge.passages } : {}),
      // Not retried: a failed embedding makes the check say "not judged", it never guesses.
      ...(embeddings ? { embed: (texts: string[]) => fetchEmbeddings(embeddings, texts, requestSignal) } : {}),
    });
    if (requestSignal.aborted) throw new AbortedError('cancelled while grading');
    return results;
  };
}
