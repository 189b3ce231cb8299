// Writing an answer from retrieved passages, in the style of a model: lead sentence, quoted points, sources.
import { hashString } from './random.js';
import type { Passage } from './markdown.js';
import { splitSentences, stripMarkdown } from './markdown.js';
import type { AnswerStyle } from './model-profiles.js';
import type { RetrievedPassage } from './retrieval.js';
import { contentTerms } from './text-terms.js';

/** The fixed reply when retrieval finds nothing relevant. */
export const NO_ANSWER_TEXT = "I don't know based on the connected documents.";

const LEADS: Record<AnswerStyle, [string, string]> = {
  claude: ['Here is what the connected documents say:', 'Based on the connected documents:'],
  gpt: ['According to the knowledge base:', "Here's what I found in the documentation:"],
  mini: ['Short answer:', 'In brief:'],
  reasoning: ['Answer, from the documents:', 'Working from the documents:'],
  grok: ['Straight from the docs:', "Here's the deal, per the docs:"],
};

/** Passages scoring below this share of the best one are noise, not support. */
const RELATIVE_SCORE_FLOOR = 0.3;
/** Longer passages are quoted by their relevant sentences only. */
const LONG_PASSAGE_CHARS = 240;

export interface ComposeInput {
  retrieved: readonly RetrievedPassage[];
  /** Terms of the question itself (weight 1); a passage must match one of these, or a resolved reference. */
  strongTerms: ReadonlySet<string>;
  style: AnswerStyle;
  maxPassages: number;
  plaintext: boolean;
  /** Picks the lead variant: same seed, model and question → same text. */
  variantKey: string;
}

export interface ComposedAnswer {
  text: string;
  quoted: Passage[];
}

/** The passages an answer quotes: the best few, shown grouped by document in each document's order. */
export function selectPassages(retrieved: readonly RetrievedPassage[], strongTerms: ReadonlySet<string>, maxPassages: number): Passage[] {
  const best = retrieved[0];
  if (!best || !best.matchedTerms.some((term) => strongTerms.has(term))) return [];
  const chosen = retrieved.filter((r) => r.score >= best.score * RELATIVE_SCORE_FLOOR).slice(0, maxPassages);
  const docRank = new Map<string, number>();
  for (const r of chosen) if (!docRank.has(r.passage.docName)) docRank.set(r.passage.docName, docRank.size);
  return chosen
    .map((r) => r.passage)
    .sort((a, b) => (docRank.get(a.docName) ?? 0) - (docRank.get(b.docName) ?? 0) || a.order - b.order);
}

function quoteOf(passage: Passage, queryTerms: ReadonlySet<string>): string {
  if (passage.text.length <= LONG_PASSAGE_CHARS) return passage.text;
  const sentences = splitSentences(passage.text);
  const relevant = sentences.filter((sentence) => contentTerms(sentence).some((term) => queryTerms.has(term)));
  return (relevant.length > 0 ? relevant.slice(0, 2) : sentences.slice(0, 1)).join(' ');
}

function sourcesLine(quoted: readonly Passage[]): string {
  const names: string[] = [];
  for (const passage of quoted) {
    const name = passage.source === 'document' ? `${passage.docTitle} (${passage.docName.split('/').pop() ?? passage.docName})` : passage.docName;
    if (!names.includes(name)) names.push(name);
  }
  return `Sources: ${names.join(', ')}`;
}

/** The answer text, markdown unless plaintext; NO_ANSWER_TEXT when nothing relevant was found. */
export function composeAnswer(input: ComposeInput, queryTerms: ReadonlySet<string>): ComposedAnswer {
  const quoted = selectPassages(input.retrieved, input.strongTerms, input.maxPassages);
  if (quoted.length === 0) return { text: NO_ANSWER_TEXT, quoted };
  const lead = LEADS[input.style][hashString(input.variantKey) % 2] ?? LEADS[input.style][0];
  const points = quoted.map((passage) => quoteOf(passage, queryTerms));
  const sources = sourcesLine(quoted);
  if (input.plaintext) {
    return { text: [lead, ...points.map(stripMarkdown), sources].join('\n'), quoted };
  }
  const list = points.map((point, i) => (input.style === 'reasoning' ? `${i + 1}. ${point}` : `- ${point}`));
  return { text: `${lead}\n\n${list.join('\n')}\n\n${sources}`, quoted };
}
