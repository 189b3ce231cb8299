// Before the first question: is the service there, and does it accept the key? (listing boards costs no credits)
import type { KbClient } from '../client/index.js';
import { KbError, NotFoundError } from '../domain/errors.js';
import type { ResolvedTarget } from './target.js';

export class PreflightError extends KbError {
  readonly code: KbError['code'];
  constructor(message: string, cause: KbError) {
    super(message);
    this.code = cause.code;
  }
}

const PREFLIGHT_TIMEOUT_MS = 15_000;

export async function preflight(client: KbClient, target: ResolvedTarget, signal: AbortSignal): Promise<void> {
  let boards: { id: string }[];
  try {
    boards = await client.listBoards(signal, PREFLIGHT_TIMEOUT_MS);
  } catch (error) {
    if (!(error instanceof KbError)) throw error;
    if (error.code === 'E_UNAUTHORIZED') throw new PreflightError('the service rejected the API key (401 Unauthorized)', error);
    if (error.code === 'E_CONNECTION' || error.code === 'E_TIMEOUT') {
      throw new PreflightError(`the service is unreachable at ${target.embedded ? 'the embedded address' : target.baseUrl}: ${error.message}`, error);
    }
    throw new PreflightError(`listing boards failed before the run: ${error.message}`, error);
  }
  if (!boards.some((b) => b.id === target.boardId)) {
    throw new PreflightError(`board ${target.boardId} is not among the boards this key can see (${boards.map((b) => b.id).join(', ') || 'none'})`, new NotFoundError('board', 404, null));
  }
}
