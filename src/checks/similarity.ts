// The `similar` check: how close an answer is to a golden answer, as a score in [0, 1].
import { extractFacts, judgeFacts, type FactVerdict } from './reference-facts.js';
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

/**
 * How much of the reference's weight the answer holds: Σ min(answer, reference) / Σ reference over
 * the same weighted terms as textSimilarity. An answer that says the reference and more scores 1;
 * cosine alone punishes the "more" (a correct answer with two extra bullets fell to 0.48).
 */
export function referenceCoverage(answer: string, reference: string): number {
  const ref = termVector(tokenize(reference));
  if (ref.size === 0) return 1;
  const ans = termVector(tokenize(answer));
  let held = 0;
  let total = 0;
  for (const [term, weight] of ref) {
    held += Math.min(weight, ans.get(term) ?? 0);
    total += weight;
  }
  return held / total;
}

/** The lexical text score: the larger of cosine (a rewording of like length) and coverage (the reference and more). */
export function lexicalTextScore(answer: string, reference: string): number {
  return Math.max(textSimilarity(answer, reference), referenceCoverage(answer, reference));
}

export interface ReferenceScore {
  score: number;
  /** Before the facts: lexical, or the embeddings' cosine. */
  textScore: number;
  facts: FactVerdict[];
}

/**
 * The `similar` score (docs/suite-format.md, "How `similar` scores"): the text score when the
 * answer states every fact of the reference; otherwise min(text score, bar) × found / facts, which
 * is below the bar whatever the wording, so a fluent answer with a wrong number never passes.
 */
export function scoreAgainstReference(answer: string, reference: string, min: number, textScore = lexicalTextScore(answer, reference)): ReferenceScore {
  const facts = judgeFacts(extractFacts(reference, 'measures'), answer);
  const found = facts.filter((f) => f.status === 'found').length;
  const text = Math.min(1, Math.max(0, textScore));
  const score = found === facts.length ? text : (Math.min(text, min) * found) / facts.length;
  return { score, textScore: text, facts };
}

const excerpt = (text: string): string => `"${text.slice(0, 60)}${text.length > 60 ? '…' : ''}"`;

function factProblems(facts: readonly FactVerdict[]): string {
  return facts
    .filter((f) => f.status !== 'found')
    .slice(0, 3)
    .map((f) => (f.status === 'contradicted' ? `says "${f.instead}" where the reference says "${f.fact.text}"` : `"${f.fact.text}" of the reference is missing`))
    .join('; ');
}

export const similarCheck: CheckHandler<'similar'> = async (spec, subject, ports) => {
  const { to, min } = spec.value;
  let textScore: number | undefined;
  let via = '';
  if (ports.embed) {
    try {
      const [a, b] = await ports.embed([subject.text, to]);
      textScore = vectorCosine(a!, b!);
      via = ' (embeddings)';
    } catch (error) {
      const reason = `the embeddings endpoint failed: ${(error as Error).message}`;
      // A missing or contradicted fact fails the check whatever the text score: that needs no embeddings.
      const facts = scoreAgainstReference(subject.text, to, min, 0);
      if (facts.facts.some((f) => f.status !== 'found')) {
        return { type: 'similar', pass: false, detail: `${factProblems(facts.facts)} (${reason}; the facts alone fail it)` };
      }
      // Not judged is not wrong (pass: null, the run incomplete): never a lexical guess in its place.
      return { type: 'similar', pass: null, not_judged: reason, detail: `not judged: ${reason}` };
    }
  }
  const result = scoreAgainstReference(subject.text, to, min, textScore);
  const pass = result.score >= min;
  const shown = result.score.toFixed(3);
  const problems = factProblems(result.facts);
  const detail = pass
    ? `similarity${via} ${shown} ≥ ${min}`
    : `similarity${via} ${shown} below the minimum ${min} to ${excerpt(to)}${problems ? `: ${problems}` : ''}`;
  return { type: 'similar', pass, detail };
};

/** Cosine of two embedding vectors, clamped to [0, 1] (a negative cosine is as unlike as 0). */
export function vectorCosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) throw new Error(`embeddings of different lengths (${a.length} and ${b.length})`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  if (na === 0 || nb === 0) return 0;
  return Math.min(1, Math.max(0, dot / Math.sqrt(na * nb)));
}
