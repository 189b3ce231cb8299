// --reuse-answers in a session: the flags checked before anything starts, and the index of stored answers built once the target is known.
import { InputError } from '../domain/errors.js';
import type { RunConfig } from '../config/run-config.js';
import type { Plan } from '../plan/types.js';
import { answerSourceOfRun, type AnswerSource } from '../store/answer-key.js';
import { readAnswerIndex, type AnswerIndex } from '../store/answer-index.js';
import { readRunInfo } from '../store/run-dir.js';
import type { ResolvedTarget } from './target.js';

/**
 * A live service's documents change behind its API: an answer is reused only under the same
 * `--kb-version` label, never on a guess. The embedded service's knowledge base is its documents'
 * hashes, so a label there would say nothing: refused rather than ignored. Each source must be a run.
 */
export function assertReuseFlags(options: RunConfig): void {
  const live = options.target.baseUrl !== undefined;
  if (options.target.kbVersion !== undefined && !live) {
    throw new InputError("--kb-version labels a live service's knowledge base (with --base-url); the embedded service's is told by its documents' hashes: leave it out", { field: '--kb-version' });
  }
  if (options.record.reuseAnswers === undefined) return;
  if (live && options.target.kbVersion === undefined) {
    throw new InputError(
      "--reuse-answers against a live service (--base-url) needs --kb-version TEXT: its documents can change behind the API, so an answer is reused only when the run that asked it named the same --kb-version",
      { field: '--kb-version' },
    );
  }
  if (options.placement.resumeDir !== undefined) throw new InputError('--resume continues a run with the flags it began with; leave out --reuse-answers', { field: '--reuse-answers' });
  for (const dir of options.record.reuseAnswers) readRunInfo(dir);
}

/** Who answers this run: the same key parts a stored run records (store/answer-key.ts). */
export function currentAnswerSource(target: ResolvedTarget, options: Pick<RunConfig, 'target'>): AnswerSource {
  return answerSourceOfRun({
    target: { base_url: target.baseUrl, embedded: target.embedded, board_id: target.boardId, chat_id: target.chatId },
    ...(target.knowledgeBase ? { knowledge_base: target.knowledgeBase } : {}),
    config: { target: options.target.kbVersion !== undefined ? { kbVersion: options.target.kbVersion } : {} },
  });
}

export interface ReuseSetup {
  index: AnswerIndex;
  /** What the console says before the run: how many stored answers match, per source run. */
  notices: string[];
}

/** The stored answers this plan can take, or null without --reuse-answers. */
export async function setUpReuse(options: RunConfig, plan: Plan, target: ResolvedTarget): Promise<ReuseSetup | null> {
  if (options.record.reuseAnswers === undefined) return null;
  const index = await readAnswerIndex(options.record.reuseAnswers, plan, currentAnswerSource(target, options));
  const notices = index.sources.map((s) => {
    const known = answerSourceOfRun(readRunInfo(s.dir)).knowledge !== null;
    return known
      ? `--reuse-answers ${s.dir}: ${s.matching} stored answer(s) of run ${s.run_id} match this plan's questions, target and knowledge base; they are judged again, not asked`
      : `--reuse-answers ${s.dir}: run ${s.run_id} recorded no knowledge-base identity (a live run without --kb-version): none of its answers is reused`;
  });
  return { index, notices };
}
