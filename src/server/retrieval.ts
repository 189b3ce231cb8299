// Full-text retrieval over a chat's passages (minisearch, BM25), with per-question extra passages.
import MiniSearch from 'minisearch';
import type { Passage } from './markdown.js';
import { tokenize, toTerm } from './text-terms.js';

/** A processed query term and how much it counts (1 = the question itself; less for thread context). */
export interface WeightedTerm {
  term: string;
  weight: number;
}

export interface RetrievedPassage {
  passage: Passage;
  score: number;
  /** The query terms this passage matched. */
  matchedTerms: string[];
}

const FIELDS = ['text', 'heading', 'docTitle'];

function createIndex(passages: readonly Passage[]): MiniSearch<Passage> {
  const index = new MiniSearch<Passage>({
    fields: FIELDS,
    idField: 'id',
    tokenize,
    processTerm: (term) => toTerm(term),
  });
  index.addAll(passages);
  return index;
}

interface BuiltIndex {
  index: MiniSearch<Passage>;
  byId: Map<string, Passage>;
}

/**
 * Query terms beyond this many are dropped, lowest weight first: a question has a few dozen, and
 * each term costs a pass over the index (a 1 MiB prompt has a hundred thousand).
 */
export const MAX_QUERY_TERMS = 64;

/**
 * Prefix and fuzzy matching only for word-sized terms: minisearch's edit-distance matrix grows with
 * the square of a term's length (a 60 000-letter "word" took seconds, a longer one failed).
 */
export const MAX_FUZZY_TERM_CHARS = 32;

/** The heaviest terms of a query (first mention first among equals), each at its highest weight. */
function queryWeights(query: readonly WeightedTerm[]): Map<string, number> {
  const weights = new Map<string, number>();
  for (const { term, weight } of query) weights.set(term, Math.max(weight, weights.get(term) ?? 0));
  if (weights.size <= MAX_QUERY_TERMS) return weights;
  return new Map([...weights].sort((a, b) => b[1] - a[1]).slice(0, MAX_QUERY_TERMS));
}

const wordSized = (term: string): boolean => term.length <= MAX_FUZZY_TERM_CHARS;

/** Indexes with extra passages kept for reuse: a thread's history only changes when a turn is saved. */
const EXTRA_CACHE_SIZE = 64;

/** The index of one chat's knowledge documents, built once; extra passages get a per-question index. */
export class KnowledgeIndex {
  private readonly byId = new Map<string, Passage>();
  private readonly index: MiniSearch<Passage>;
  private readonly withExtras = new Map<string, BuiltIndex>();

  constructor(private readonly passages: readonly Passage[]) {
    for (const passage of passages) this.byId.set(passage.id, passage);
    this.index = createIndex(passages);
  }

  get size(): number {
    return this.passages.length;
  }

  /**
   * Best passages first. Extra passages (additional_context, thread history) are indexed together
   * with the documents for this question only; rebuilding is cheap at knowledge-base sizes and,
   * unlike add-then-remove, leaves the shared index's statistics untouched.
   */
  search(query: readonly WeightedTerm[], extra: readonly Passage[] = []): RetrievedPassage[] {
    if (query.length === 0) return [];
    const weights = queryWeights(query);
    const { index, byId } = extra.length === 0 ? { index: this.index, byId: this.byId } : this.indexWith(extra);
    const results = index.search([...weights.keys()].join(' '), {
      tokenize: (text) => text.split(' '),
      processTerm: (term) => term,
      boost: { heading: 1.5, docTitle: 0.5 },
      boostTerm: (term) => weights.get(term) ?? 1,
      prefix: (term) => term.length >= 5 && wordSized(term),
      fuzzy: (term) => (term.length >= 6 && wordSized(term) ? 0.2 : false),
      weights: { prefix: 0.4, fuzzy: 0.3 },
      combineWith: 'OR',
      // Weaker length normalisation than BM25's usual 0.75: a short list item should not beat a
      // longer one that answers the question equally well just by being short.
      bm25: { k: 1.2, b: 0.4, d: 0.5 },
    });
    const retrieved: RetrievedPassage[] = [];
    for (const result of results) {
      const passage = byId.get(String(result.id));
      if (passage) retrieved.push({ passage, score: result.score, matchedTerms: result.queryTerms });
    }
    // Ties broken by id so equal scores never depend on insertion details.
    return retrieved.sort((a, b) => b.score - a.score || a.passage.id.localeCompare(b.passage.id));
  }

  private indexWith(extra: readonly Passage[]): BuiltIndex {
    const key = extra.map((passage) => `${passage.id}\u0000${passage.text}`).join('\u0001');
    const cached = this.withExtras.get(key);
    if (cached) {
      this.withExtras.delete(key);
      this.withExtras.set(key, cached);
      return cached;
    }
    const byId = new Map(this.byId);
    for (const passage of extra) byId.set(passage.id, passage);
    const built = { index: createIndex([...this.passages, ...extra]), byId };
    this.withExtras.set(key, built);
    if (this.withExtras.size > EXTRA_CACHE_SIZE) this.withExtras.delete(this.withExtras.keys().next().value as string);
    return built;
  }
}
