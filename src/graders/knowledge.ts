// The suite's `knowledge:` documents: read once, cut into passages, searched (minisearch, BM25)
// for the passages a context check gives its grader.
import { readFileSync } from 'node:fs';
import MiniSearch from 'minisearch';
import { InputError } from '../domain/errors.js';
import type { Suite } from '../domain/suite.js';
import { expandPattern } from '../suite/include.js';

/** Passages given to the grader per question: enough for a fact and its neighbours, few enough to read. */
export const PASSAGES_PER_QUESTION = 4;

export interface Knowledge {
  files: string[];
  /** Every passage, in order: what a worker thread (--workers) is given to index again, never the files. */
  texts: string[];
  passages(question: string): string[];
}

/** Paragraphs, with a heading kept at the front of the paragraphs under it. */
export function splitPassages(text: string): string[] {
  const passages: string[] = [];
  let heading = '';
  for (const block of text.split(/\n\s*\n/)) {
    const trimmed = block.trim();
    if (trimmed === '') continue;
    const lines = trimmed.split('\n');
    if (/^#{1,6}\s/.test(lines[0] ?? '')) {
      heading = (lines[0] ?? '').replace(/^#+\s*/, '');
      if (lines.length === 1) continue;
      passages.push(`${heading}: ${lines.slice(1).join(' ')}`);
      continue;
    }
    passages.push(heading ? `${heading}: ${lines.join(' ')}` : lines.join(' '));
  }
  return passages;
}

export function loadKnowledge(knowledge: NonNullable<Suite['knowledge']>): Knowledge {
  const files: string[] = [];
  for (const pattern of knowledge.patterns) {
    const found = expandPattern(pattern);
    if (found.length === 0) throw new InputError(`knowledge: ${pattern} names no readable file`, { ...knowledge.location, field: 'knowledge' });
    for (const file of found) if (!files.includes(file)) files.push(file);
  }
  return knowledgeOf(files, files.flatMap((file) => splitPassages(readFileSync(file, 'utf8'))));
}

/** The passages read once, indexed for search (in the main thread, or again in a worker thread from the same texts). */
export function knowledgeOf(files: string[], texts: string[]): Knowledge {
  const index = new MiniSearch<{ id: number; text: string }>({ fields: ['text'], storeFields: ['text'] });
  index.addAll(texts.map((text, id) => ({ id, text })));
  return {
    files,
    texts,
    passages: (question) =>
      index
        .search(question, { prefix: (term) => term.length > 3, fuzzy: (term) => (term.length > 5 ? 0.2 : false), combineWith: 'OR' })
        .slice(0, PASSAGES_PER_QUESTION)
        .map((hit) => texts[hit.id as number]!),
  };
}
