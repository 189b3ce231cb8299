// Building the retrieval query of a question from its words and its thread: ordinals, pronouns, restated facts.
import type { Passage } from './markdown.js';
import type { SavedTurn } from './conversations.js';
import type { WeightedTerm } from './retrieval.js';
import { contentTerms, tokenize, toTerm } from './text-terms.js';

/** Words that, asked about, mean the same thing as terms the documents use. */
const SYNONYMS: Record<string, string[]> = {
  much: ['price', 'cost'],
  cost: ['price'],
  price: ['cost'],
  pay: ['price', 'billing'],
  expensive: ['price'],
  cheap: ['price'],
  sso: ['single', 'sign'],
  encrypted: ['encryption'],
  money: ['refund'],
};

const ORDINALS: Record<string, number> = {
  first: 1, '1st': 1, second: 2, '2nd': 2, third: 3, '3rd': 3, fourth: 4, '4th': 4, fifth: 5, '5th': 5, last: -1,
};

const PRONOUNS = new Set(['it', 'its', 'that', 'this', 'they', 'them', 'those', 'these', 'one', 'ones']);

export interface RetrievalQuery {
  terms: WeightedTerm[];
  /** What this question is about, saved with the turn for a later "it". */
  focus: string[];
}

function push(terms: WeightedTerm[], words: readonly string[], weight: number): void {
  for (const term of words) terms.push({ term, weight });
}

/** The name a quoted passage is about: its bold lead (`**Team**`) or else its heading. */
function keyTermsOf(passage: Passage): string[] {
  const bold = BOLD_LEAD.exec(passage.text)?.[1];
  return contentTerms(bold ?? passage.heading);
}

function ordinalIn(tokens: readonly string[]): number | undefined {
  for (const token of tokens) if (ORDINALS[token] !== undefined) return ORDINALS[token];
  return undefined;
}

const BOLD_LEAD = /\*\*([^*]+)\*\*/;

/**
 * The passage an ordinal points at, in the latest turn that quoted a list. When that answer quoted
 * named items (a bold lead, like `**Team**`), "the second one" counts only those: an introductory
 * sentence quoted above a list is not one of its items.
 */
function resolveOrdinal(ordinal: number, history: readonly SavedTurn[]): Passage | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const quoted = history[i]?.quoted ?? [];
    if (quoted.length < 2) continue;
    const named = quoted.filter((passage) => BOLD_LEAD.test(passage.text));
    const items = named.length >= 2 ? named : quoted;
    return ordinal === -1 ? items[items.length - 1] : items[ordinal - 1];
  }
  return undefined;
}

/** Weighted query terms for a question asked on its own or inside a thread. */
export function buildQuery(prompt: string, history: readonly SavedTurn[] = []): RetrievalQuery {
  const tokens = tokenize(prompt);
  // Ordinal words point at an earlier list; they are not what the question is about.
  const own = contentTerms(prompt).filter((term) => ORDINALS[term] === undefined);
  const terms: WeightedTerm[] = [];
  push(terms, own, 1);
  // A synonym is what the question means ("how much" asks for a price), so it counts nearly fully.
  for (const token of tokens) push(terms, (SYNONYMS[token] ?? []).map((word) => toTerm(word) ?? word), 0.8);
  const last = history[history.length - 1];
  const ordinal = ordinalIn(tokens);
  const referenced = ordinal === undefined ? undefined : resolveOrdinal(ordinal, history);
  let focus = own;
  if (referenced) {
    // Only the item's name: its other words would pull back the passage already quoted.
    focus = keyTermsOf(referenced);
    push(terms, focus, 1);
  } else if (last && (tokens.some((token) => PRONOUNS.has(token)) || own.length < 2)) {
    // A follow-up that leans on the previous turn: what that turn was about still counts, a little.
    push(terms, last.focus, 0.8);
    push(terms, contentTerms(last.prompt), 0.3);
    focus = [...own, ...last.focus];
  }
  return { terms, focus };
}

/** Things said earlier in the thread that are not in the documents: statements and quoted context. */
export function historyPassages(history: readonly SavedTurn[]): Passage[] {
  const passages: Passage[] = [];
  const seen = new Set<string>();
  const add = (text: string): void => {
    if (seen.has(text)) return;
    seen.add(text);
    const order = passages.length;
    passages.push({ id: `history#${order}`, source: 'history', docName: 'this conversation', docTitle: 'This conversation', heading: '', text, order });
  };
  for (const turn of history) {
    if (!turn.prompt.trim().endsWith('?')) add(turn.prompt.trim());
    for (const passage of turn.quoted) if (passage.source !== 'document') add(passage.text);
  }
  return passages;
}

/** additional_context as passages for this question only (one per paragraph). */
export function contextPassages(additionalContext: string): Passage[] {
  return additionalContext
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/\s+/g, ' ').trim())
    .filter((paragraph) => paragraph.length > 0)
    .map((text, order) => ({ id: `context#${order}`, source: 'context' as const, docName: 'additional context', docTitle: 'Additional context', heading: '', text, order }));
}
