// Before the first question: is the service there, and does it accept the key? (listing boards costs no credits)
import type { KbClient } from '../client/index.js';
import { fetchEmbeddings } from '../client/embeddings.js';
import { InputError, KbError } from '../domain/errors.js';
import { DEFAULT_BACKOFF, retryingClient, type BackoffPolicy } from '../client/retry.js';
import type { RunConfig } from '../config/run-config.js';
import type { ResolvedTarget } from './target.js';
import type { Grader } from '../graders/index.js';

export class PreflightError extends KbError {
  readonly code: KbError['code'];
  constructor(message: string, cause: KbError) {
    super(message);
    this.code = cause.code;
  }
}

const PREFLIGHT_TIMEOUT_MS = 15_000;
/** A 429 or a passing 5xx must not end a run before it starts: a few tries, through the one retry path. */
const PREFLIGHT_RETRY = { ...DEFAULT_BACKOFF, retries: 4, baseMs: 400 };

/** A policy with the run's --max-retry-wait, for the waits outside the runner (preflight, judges). */
export function retryPolicyOf(policy: BackoffPolicy, request: Pick<RunConfig['request'], 'maxRetryWaitMs'>): BackoffPolicy {
  return request.maxRetryWaitMs === undefined ? policy : { ...policy, maxWaitMs: request.maxRetryWaitMs };
}

function listBoardsPatiently(client: KbClient, signal: AbortSignal, policy: BackoffPolicy): Promise<{ id: string }[]> {
  return retryingClient(client, policy).listBoards(signal, PREFLIGHT_TIMEOUT_MS);
}

export async function preflight(client: KbClient, target: ResolvedTarget, signal: AbortSignal, request: Pick<RunConfig['request'], 'maxRetryWaitMs'> = {}): Promise<void> {
  let boards: { id: string }[];
  try {
    boards = await listBoardsPatiently(client, signal, retryPolicyOf(PREFLIGHT_RETRY, request));
  } catch (error) {
    if (!(error instanceof KbError)) throw error;
    if (error.code === 'E_UNAUTHORIZED') throw new PreflightError('the service rejected the API key (401 Unauthorized)', error);
    if (error.code === 'E_CONNECTION' || error.code === 'E_TIMEOUT') {
      throw new PreflightError(`the service is unreachable at ${target.embedded ? 'the embedded address' : target.baseUrl}: ${error.message}`, error);
    }
    throw new PreflightError(`listing boards failed before the run: ${error.message}`, error);
  }
  if (!boards.some((b) => b.id === target.boardId)) {
    // A wrong id is the user's to fix (exit 2), like any other invalid input; nothing was asked yet.
    throw new InputError(`board ${target.boardId} is not among the boards this key can see (${boards.map((b) => b.id).join(', ') || 'none'})`, { field: 'board_id' });
  }
}

/**
 * The grader, once, before anything is sent: its chat is listed, its endpoint answers. A grader
 * that cannot grade would turn every model-graded check into "not judged" after paying for answers.
 */
export async function preflightGrader(grader: Grader, signal: AbortSignal): Promise<void> {
  try {
    await grader.preflight(signal);
  } catch (error) {
    if (!(error instanceof KbError) || error instanceof InputError) throw error;
    if (error.code === 'E_UNAUTHORIZED') throw new PreflightError(`the grader (${grader.label}) rejected its key: ${error.message}`, error);
    throw new PreflightError(`the grader (${grader.label}) cannot be reached: ${error.message}`, error);
  }
}

/**
 * `--embeddings-url`: one embedding asked before the first question, so a wrong URL, model or key is
 * exit 2 with nothing paid, rather than every `similar` check of the run "not judged" afterwards.
 */
export async function preflightEmbeddings(options: Pick<RunConfig, 'grader'>, signal: AbortSignal): Promise<void> {
  if (!options.grader.embeddings) return;
  try {
    await fetchEmbeddings({ ...options.grader.embeddings, timeoutMs: PREFLIGHT_TIMEOUT_MS }, ['kbbench preflight'], signal);
  } catch (error) {
    if (signal.aborted) throw error;
    throw new InputError(`the embeddings endpoint did not answer before the run (model ${options.grader.embeddings.model}): ${(error as Error).message}`, { field: '--embeddings-url' });
  }
}
