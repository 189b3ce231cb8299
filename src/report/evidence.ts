// A bounded sample of answers, failures and errors per case × model, collected while streaming, for HTML and JUnit.
import type { CheckResult, Sample, SampleError } from '../domain/sample.js';
import { caseKeyOf, caseLabelOf } from '../metrics/case-stats.js';
import { getOwn, setOwn } from '../metrics/own-record.js';
import { errorKindOf, isRequestError } from '../metrics/request-stats.js';
import { MAX_MATRIX_ROWS } from './html/matrix-bound.js';

/**
 * The bounds that keep report.html a reasonable size for a 100,000-request run (samples.csv keeps
 * everything): at most 3 answers per case × model cell, each answer and prompt cut at 4,096
 * characters, check details at 1,000, no more than 8,000,000 characters of answers and
 * 2,000,000 of prompts in all (a 100,000-case suite would otherwise hold every prompt in memory).
 * Cells and prompts are kept only for the cases the matrix can show: the first 500 cases or
 * threads started, and the first 500 with a failed check or a request error (the matrix shows at
 * most 500 rows, problems first), so a million distinct cases keep at most 1,000 groups.
 */
export const EVIDENCE_LIMITS = {
  answersPerCell: 3,
  answerChars: 4096,
  promptChars: 4096,
  checkDetailChars: 1000,
  totalAnswerChars: 8_000_000,
  totalPromptChars: 2_000_000,
  groupsInRunOrder: MAX_MATRIX_ROWS,
  groupsWithProblems: MAX_MATRIX_ROWS,
} as const;

export interface AnswerEvidence {
  item_id: string;
  repeat: number;
  outcome: Sample['outcome'];
  status: number | null;
  pass: boolean;
  text: string;
  /** The answer's full length, when `text` was cut (or omitted once the total budget ran out). */
  text_cut_from: number | null;
  checks: CheckResult[];
  ttfb_ms: number | null;
  ttfc_ms: number | null;
  latency_ms: number | null;
  credits_used: number | null;
  credits_unknown: boolean;
  attempts: number;
  error: SampleError | null;
  conversation_id: string | null;
  /** --reuse-answers: the run this answer was taken from (not asked by this run). */
  reused_from?: string;
}

export interface CellEvidence {
  /** Up to answersPerCell answers, a failing one kept when there is one. */
  answers: AnswerEvidence[];
  firstFailure: AnswerEvidence | null;
  firstError: AnswerEvidence | null;
}

export interface ErrorGroup {
  kind: string;
  count: number;
  models: Record<string, number>;
  example: { model: string; label: string; item_id: string; status: number | null; message: string };
}

export interface Evidence {
  /** case key → prompt (cut to promptChars); kept cases only. */
  prompts: Map<string, string>;
  /** case key → model → cell; kept cases only (see EVIDENCE_LIMITS). */
  cells: Map<string, Map<string, CellEvidence>>;
  errors: ErrorGroup[];
  /** True once the total answer budget ran out and later answers were shown without text. */
  budgetExhausted: boolean;
  /** True once the total prompt budget ran out and later prompts were not kept. */
  promptBudgetExhausted: boolean;
}

export interface EvidenceCollector {
  add(sample: Sample): void;
  result(): Evidence;
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

export function createEvidenceCollector(): EvidenceCollector {
  const prompts = new Map<string, string>();
  const cells = new Map<string, Map<string, CellEvidence>>();
  const errors = new Map<string, ErrorGroup>();
  let budgetChars: number = EVIDENCE_LIMITS.totalAnswerChars;
  let budgetExhausted = false;
  let promptChars: number = EVIDENCE_LIMITS.totalPromptChars;
  let promptBudgetExhausted = false;
  const keeps = createGroupAdmission();

  const toEvidence = (sample: Sample): AnswerEvidence => {
    const limit = Math.min(EVIDENCE_LIMITS.answerChars, Math.max(0, budgetChars));
    if (limit < Math.min(sample.text.length, EVIDENCE_LIMITS.answerChars)) budgetExhausted = true;
    const text = sample.text.slice(0, limit);
    budgetChars -= text.length;
    return {
      item_id: sample.item_id, repeat: sample.repeat, outcome: sample.outcome, status: sample.status,
      pass: sample.pass, text, text_cut_from: text.length < sample.text.length ? sample.text.length : null,
      // The grader's full replies stay in results.ndjson: report.html keeps the detail alone.
      checks: sample.checks.map(({ grader_replies: _replies, ...c }) => ({ ...c, detail: cut(String(c.detail ?? ''), EVIDENCE_LIMITS.checkDetailChars) })),
      ttfb_ms: sample.ttfb_ms, ttfc_ms: sample.ttfc_ms, latency_ms: sample.latency_ms,
      credits_used: sample.credits_used, credits_unknown: sample.credits_unknown, attempts: sample.attempts,
      ...(sample.reused_from !== undefined ? { reused_from: sample.reused_from } : {}),
      error: sample.error ? { ...sample.error, message: cut(sample.error.message, EVIDENCE_LIMITS.checkDetailChars) } : null,
      conversation_id: sample.conversation_id,
    };
  };

  const add = (sample: Sample): void => {
    if (isRequestError(sample)) countError(errors, sample);
    if (!keeps(sample)) return;
    const key = caseKeyOf(sample);
    if (!prompts.has(key) && typeof sample.prompt === 'string') {
      const prompt = cut(sample.prompt, EVIDENCE_LIMITS.promptChars);
      if (prompt.length <= promptChars) {
        prompts.set(key, prompt);
        promptChars -= prompt.length;
      } else promptBudgetExhausted = true;
    }
    const byModel = cells.get(key) ?? new Map<string, CellEvidence>();
    cells.set(key, byModel);
    const cell = byModel.get(sample.model) ?? { answers: [], firstFailure: null, firstError: null };
    byModel.set(sample.model, cell);
    keepAnswer(cell, sample, toEvidence);
  };

  const result = (): Evidence => ({
    prompts, cells, errors: [...errors.values()].sort((a, b) => b.count - a.count), budgetExhausted, promptBudgetExhausted,
  });
  return { add, result };
}

/**
 * Whether a sample's case keeps evidence, decided per group (a one-time case, or a whole thread, as
 * the matrix shows them): the first groups started, then the first groups with a problem. Only
 * admitted groups are remembered, so memory stays bounded however many cases the run has.
 */
function createGroupAdmission(): (sample: Sample) => boolean {
  const admitted = new Set<string>();
  let inRunOrder = 0;
  let withProblems = 0;
  return (sample) => {
    const group = sample.thread_id !== null ? `thread:${sample.thread_id}` : caseKeyOf(sample);
    if (admitted.has(group)) return true;
    if (inRunOrder < EVIDENCE_LIMITS.groupsInRunOrder) inRunOrder++;
    else if (!sample.pass && sample.outcome !== 'skipped' && withProblems < EVIDENCE_LIMITS.groupsWithProblems) withProblems++;
    else return false;
    admitted.add(group);
    return true;
  };
}

function keepAnswer(cell: CellEvidence, sample: Sample, toEvidence: (s: Sample) => AnswerEvidence): void {
  const failing = !sample.pass && sample.outcome !== 'skipped';
  const wanted =
    cell.answers.length < EVIDENCE_LIMITS.answersPerCell ||
    (failing && !cell.answers.some((a) => !a.pass && a.outcome !== 'skipped')) ||
    (failing && cell.firstFailure === null && !isRequestError(sample)) ||
    (isRequestError(sample) && cell.firstError === null);
  if (!wanted) return;
  const evidence = toEvidence(sample);
  if (isRequestError(sample)) cell.firstError ??= evidence;
  else if (failing) cell.firstFailure ??= evidence;
  if (cell.answers.length < EVIDENCE_LIMITS.answersPerCell) cell.answers.push(evidence);
  // A cell full of passes hides the one that failed: make room for it.
  else if (failing && !cell.answers.some((a) => !a.pass && a.outcome !== 'skipped')) {
    cell.answers[cell.answers.length - 1] = evidence;
  }
}

function countError(errors: Map<string, ErrorGroup>, sample: Sample): void {
  const kind = errorKindOf(sample);
  const group = errors.get(kind);
  if (group) {
    group.count++;
    setOwn(group.models, sample.model, (getOwn(group.models, sample.model) ?? 0) + 1);
    return;
  }
  errors.set(kind, {
    kind,
    count: 1,
    // A computed key defines an own property, even for a model named __proto__.
    models: { [sample.model]: 1 },
    example: {
      model: sample.model,
      label: caseLabelOf(sample),
      item_id: sample.item_id,
      status: sample.status,
      message: cut(sample.error?.message ?? sample.outcome, EVIDENCE_LIMITS.checkDetailChars),
    },
  });
}
