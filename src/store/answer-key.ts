// The answer key: what makes a stored answer the answer to a request (regrade, --reuse-answers).
import { createHash } from 'node:crypto';
import type { RequestOptions } from '../domain/suite.js';
import type { RunInfo } from '../domain/run.js';
import type { Sample } from '../domain/sample.js';

/**
 * What a request asks, as planned: everything that can change its answer's text but the target and
 * the knowledge base (which are one per run). A thread's turn is asked after its earlier turns, so
 * its question includes them (`earlierKey`: the previous turn's question key; null for a case or a
 * thread's first turn): a thread is matched whole or not at all.
 */
export interface QuestionParts {
  /** The `model` sent; null = the service's default. */
  request_model: string | null;
  prompt: string;
  options: Pick<RequestOptions, 'additional_context' | 'plaintext'>;
}

/**
 * Which knowledge base answered: the embedded workspace's documents (a sha256 of them), or, for a
 * live service whose documents change behind its API, the `--kb-version` label the user set.
 */
export type KnowledgeIdentity = { kind: 'documents'; sha256: string } | { kind: 'label'; label: string };

/** Who answered: the target and its knowledge base. One per run (run.json `target`, `knowledge_base`). */
export interface AnswerSource {
  target: Pick<RunInfo['target'], 'base_url' | 'embedded' | 'board_id' | 'chat_id'>;
  /** Null: nothing says which documents answered (a live service without --kb-version). */
  knowledge: KnowledgeIdentity | null;
}

/** Why a stored line does not answer a question (null: it does). */
export type Mismatch = 'not-recorded' | 'not-answered' | 'question-changed';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * The content key of a question: a sha256 over a fixed-order JSON of its parts, so an absent option
 * and one set to its default are told apart (the service may treat them differently).
 */
export function questionKey(q: QuestionParts, earlierKey: string | null): string {
  const parts = [q.request_model, q.prompt, q.options.additional_context ?? null, q.options.plaintext ?? null, earlierKey];
  return sha256(JSON.stringify(parts));
}

/**
 * The content key of an answer: who answered (the target and the knowledge base) and what was
 * asked. The embedded service's URL changes every run (a fresh port), so it is keyed as embedded
 * by its documents, not by its URL. Null when the knowledge base is unknown: such an answer is never
 * taken for another run's, since the documents may have changed in between.
 */
export function answerKey(source: AnswerSource, question: string): string | null {
  if (source.knowledge === null) return null;
  const t = source.target;
  const where = t.embedded ? 'embedded' : t.base_url.replace(/\/+$/, '');
  const knowledge = source.knowledge.kind === 'documents' ? `documents:${source.knowledge.sha256}` : `label:${source.knowledge.label}`;
  return sha256(JSON.stringify([where, t.board_id, t.chat_id, knowledge, question]));
}

/**
 * Who answered a recorded run: its target, and its knowledge base (the embedded workspace's
 * documents, or the `--kb-version` label it recorded for a live service).
 */
export function answerSourceOfRun(run: Pick<RunInfo, 'target' | 'knowledge_base'> & { config: { target: Pick<RunInfo['config']['target'], 'kbVersion'> } }): AnswerSource {
  const label = run.config.target.kbVersion;
  let knowledge: KnowledgeIdentity | null = null;
  if (run.target.embedded && run.knowledge_base !== undefined) knowledge = { kind: 'documents', sha256: run.knowledge_base.sha256 };
  else if (label !== undefined) knowledge = { kind: 'label', label };
  return { target: run.target, knowledge };
}

/** The answer key of a stored line of a run from `source`; null when it has none (not an answer, or no question key). */
export function answerKeyOfLine(source: AnswerSource, line: Pick<Sample, 'question_key' | 'endpoint'>): string | null {
  if (line.endpoint === 'create' || line.question_key === undefined) return null;
  return answerKey(source, line.question_key);
}

/**
 * Whether a stored result line answers a question (by its question key), and if not, why: the
 * line was written before kbbench recorded questions, holds no answer (a failed or skipped
 * request), or its question changed since it was answered.
 */
export function lineAnswers(line: Pick<Sample, 'question_key' | 'outcome' | 'endpoint'>, question: string): Mismatch | null {
  if (line.outcome !== 'ok' || line.endpoint === 'create') return 'not-answered';
  if (line.question_key === undefined) return 'not-recorded';
  return line.question_key === question ? null : 'question-changed';
}

/** What each mismatch means, in words a report shows. */
export const MISMATCH_WORDS: Record<Mismatch, string> = {
  'not-recorded': 'the stored answer does not record its question (written by an older kbbench)',
  'not-answered': 'the source run holds no answer to it (its request failed or was skipped)',
  'question-changed': 'the question changed since it was answered',
};

/** A line this run sent nothing for (a reused or regraded answer): it spent no credits now. */
export const NOTHING_SPENT = { credits_used: 0, credits_remaining: null, credits_unknown: false } as const satisfies Pick<Sample, 'credits_used' | 'credits_remaining' | 'credits_unknown'>;

/**
 * The credits a stored answer saves when taken instead of asked (--reuse-answers, regrade): what
 * it cost when it was asked. A line that was itself reused cost nothing then: it saves what its
 * first asking cost, so a chain of reuses counts that cost once per run, never 0.
 */
export function savedCredits(stored: Pick<Sample, 'credits_used' | 'credits_saved'>): number | null {
  return stored.credits_saved !== undefined ? stored.credits_saved : stored.credits_used;
}
