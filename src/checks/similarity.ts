// The `similar` check: how close an answer is to a golden answer, as a score in [0, 1].
import type { CheckHandler } from './types.js';

/**
 * Why this measure: cosine similarity of weighted term-frequency vectors over word unigrams and
 * bigrams, after case/accent folding, a small stop-word list and light suffix stemming.
 * - Unigrams make it robust to reordering ("within 30 days you can get a refund" ≈ "refunds are
 *   possible within 30 days"); bigrams (at half weight) reward shared phrasing and keep some word
 *   order without punishing a rewording much.
 * - Terms with digits count double: in a knowledge-base answer the numbers are the facts (days,
 *   prices, limits), and a fluent answer with the wrong number is the commonest wrong answer.
 *   Measured on a refund answer: rewordings score 0.63–0.87, the same sentence with "14 days"
 *   instead of "30 days" 0.44, an unrelated answer 0.
 * - Stemming folds "refunds/refunded/refunding" and "days/day" without a dictionary; stop words
 *   keep "the/of/is" from inflating unrelated answers. Negations (no, not, never) are kept.
 * - It is deterministic, needs no model download and no network, so a run can be repeated and
 *   compared. What it cannot see is meaning across different words (synonyms, paraphrase with
 *   no shared terms); for that, use a `judge` check.
 * Cosine (rather than Jaccard) lets repeated key terms weigh more and ignores answer length,
 * so a longer answer that contains the golden one still scores high.
 */
export function textSimilarity(a: string, b: string): number {
  const va = termVector(tokenize(a));
  const vb = termVector(tokenize(b));
  if (va.size === 0 && vb.size === 0) return 1;
  if (va.size === 0 || vb.size === 0) return 0;
  let dot = 0;
  for (const [term, weight] of va) dot += weight * (vb.get(term) ?? 0);
  const score = dot / (norm(va) * norm(vb));
  return Math.min(1, Math.max(0, score));
}

const STOP_WORDS = new Set(
  (
    'a an the and or but if then so of to in on at by for from with as into about over than ' +
    'is are was were be been being am do does did has have had it its this that these those ' +
    'there here i me my we our us you your he she him her his they them their what which who ' +
    'whom will would shall should can could may might must also just very too'
  ).split(' '),
);

/** Lower-case, accent-free word tokens with stop words removed and suffixes lightly stemmed. */
export function tokenize(text: string): string[] {
  const folded = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/['’]/g, '');
  const words = folded.match(/[\p{L}\p{N}]+(?:[.,]\d+)*/gu) ?? [];
  return words.filter((word) => !STOP_WORDS.has(word)).map(stem);
}

/** A conservative suffix stripper (a small part of Porter's step 1): plural, -ed, -ing, -ly. */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ing') && word.length > 5) return undouble(word.slice(0, -3));
  if (word.endsWith('ed') && word.length > 4) return undouble(word.slice(0, -2));
  if (word.endsWith('ly') && word.length > 5) return word.slice(0, -2);
  if (word.endsWith('s') && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

function undouble(word: string): string {
  return /([b-df-hj-np-tv-z])\1$/.test(word) && !/(?:ll|ss|zz)$/.test(word) ? word.slice(0, -1) : word;
}

const NUMBER_WEIGHT = 2;
const BIGRAM_WEIGHT = 0.5;

export function termVector(tokens: readonly string[]): Map<string, number> {
  const vector = new Map<string, number>();
  const add = (term: string, weight: number): void => {
    vector.set(term, (vector.get(term) ?? 0) + (/\d/.test(term) ? weight * NUMBER_WEIGHT : weight));
  };
  tokens.forEach((token, index) => {
    add(token, 1);
    const next = tokens[index + 1];
    if (next !== undefined) add(`${token} ${next}`, BIGRAM_WEIGHT);
  });
  return vector;
}

function norm(vector: Map<string, number>): number {
  let total = 0;
  for (const weight of vector.values()) total += weight * weight;
  return Math.sqrt(total);
}

export const similarCheck: CheckHandler<'similar'> = (spec, subject) => {
  const score = textSimilarity(subject.text, spec.value.to);
  const pass = score >= spec.value.min;
  const shown = score.toFixed(3);
  const detail = pass
    ? `similarity ${shown} ≥ ${spec.value.min}`
    : `similarity ${shown} below the minimum ${spec.value.min} to "${spec.value.to.slice(0, 60)}${spec.value.to.length > 60 ? '…' : ''}"`;
  return { type: 'similar', pass, detail };
};
