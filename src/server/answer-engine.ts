// From a question to an answer text: retrieval over the chat's documents, context and thread, or judging.
import { composeAnswer } from './compose.js';
import type { SavedTurn } from './conversations.js';
import { buildQuery, contextPassages, historyPassages } from './follow-up.js';
import { judgeAnswer } from './judge.js';
import { asksForJson, BABBLE, gradeJson } from './judge-graded.js';
import type { Passage } from './markdown.js';
import type { ModelProfile } from './model-profiles.js';
import type { KnowledgeIndex, WeightedTerm } from './retrieval.js';
import type { WorkspaceChat } from './workspace.js';

export interface AnswerRequest {
  chat: WorkspaceChat;
  index: KnowledgeIndex;
  model: string;
  profile: ModelProfile;
  prompt: string;
  additionalContext: string;
  history: readonly SavedTurn[];
  plaintext: boolean;
  seed: number;
  /** Overload (degradeQuality): retrieval gets the DEGRADED_BUDGET, so answers miss facts. */
  degraded?: boolean;
  /** A judge chat under --judge-fault-rate: it answers, but with no verdict in it. */
  babble?: boolean;
}

export interface EngineAnswer {
  text: string;
  quoted: Passage[];
  focus: string[];
  /** What the model "read": prompt, additional context, thread and retrieved passages; priced as input. */
  inputChars: number;
}

/** Only the latest turns of a long thread are read as context, as a model's context window would. */
export const CONTEXT_TURNS = 20;

/** Terms that count as the question's own (weight ≥ 0.8): at least one must match for an answer. */
const STRONG_WEIGHT = 0.8;

function historyChars(history: readonly SavedTurn[]): number {
  return history.reduce((sum, turn) => sum + turn.prompt.length + turn.answer.length, 0);
}

/**
 * Retrieval's budget under overload, as a RAG service whose search times out: only the heaviest
 * query terms are searched and one passage is quoted.
 */
export const DEGRADED_BUDGET = { queryTerms: 3, maxPassages: 1 } as const;

/** The heaviest terms, first mention first among equals. */
function heaviest(terms: readonly WeightedTerm[], count: number): WeightedTerm[] {
  return terms
    .map((term, at) => ({ term, at }))
    .sort((a, b) => b.term.weight - a.term.weight || a.at - b.at)
    .slice(0, count)
    .map(({ term }) => term);
}

export function answerQuestion(request: AnswerRequest): EngineAnswer {
  const { prompt, additionalContext } = request;
  const history = request.history.slice(-CONTEXT_TURNS);
  const baseChars = prompt.length + additionalContext.trim().length + historyChars(history);
  if (request.chat.kind === 'judge') {
    const full = `${prompt}\n\n${additionalContext}`;
    // A judge chat with documents grades context checks against them when the prompt brings none.
    const ownContext = (question: string): string =>
      request.index.search(buildQuery(question, []).terms, []).slice(0, 4).map((r) => r.passage.text).join('\n');
    const text = request.babble ? BABBLE : asksForJson(full) ? gradeJson(full, judgeAnswer, ownContext) : judgeAnswer(full);
    return { text, quoted: [], focus: [], inputChars: baseChars };
  }
  const query = buildQuery(prompt, history);
  const extra = [...contextPassages(additionalContext), ...historyPassages(history)];
  const searched = request.degraded ? heaviest(query.terms, DEGRADED_BUDGET.queryTerms) : query.terms;
  const maxPassages = request.degraded ? Math.min(DEGRADED_BUDGET.maxPassages, request.profile.maxPassages) : request.profile.maxPassages;
  const retrieved = request.index.search(searched, extra);
  const strongTerms = new Set(query.terms.filter((t) => t.weight >= STRONG_WEIGHT).map((t) => t.term));
  const composed = composeAnswer(
    {
      retrieved,
      strongTerms,
      style: request.profile.style,
      maxPassages,
      plaintext: request.plaintext,
      variantKey: `${request.seed}\u0000${request.model}\u0000${prompt}`,
    },
    new Set(query.terms.map((t) => t.term)),
  );
  const readChars = retrieved.slice(0, maxPassages * 2).reduce((sum, r) => sum + r.passage.text.length, 0);
  return { text: composed.text, quoted: composed.quoted, focus: query.focus, inputChars: baseChars + readChars };
}
