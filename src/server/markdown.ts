// Splitting markdown knowledge documents into passages (paragraphs and list items under their section).

/** Where a passage came from: a knowledge document, the request's additional_context, or the thread. */
export type PassageSource = 'document' | 'context' | 'history';

export interface Passage {
  id: string;
  source: PassageSource;
  /** The document's file name (documents), or a label such as "additional context". */
  docName: string;
  docTitle: string;
  /** The nearest heading above the passage. */
  heading: string;
  /** Inline markdown kept (bold, links); block markers removed. */
  text: string;
  /** Position within its document, so answers can keep the document's own order. */
  order: number;
}

export interface MarkdownDocument {
  title: string;
  passages: Passage[];
}

const LIST_ITEM = /^\s{0,3}(?:[-*+]|\d+[.)])\s+/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;

interface SplitState {
  title: string;
  heading: string;
  block: string[];
  blocks: { heading: string; text: string }[];
}

function flush(state: SplitState): void {
  const text = state.block.join(' ').replace(/\s+/g, ' ').trim();
  if (text.length > 0) state.blocks.push({ heading: state.heading, text });
  state.block = [];
}

function splitBlocks(markdown: string, fallbackTitle: string): SplitState {
  const state: SplitState = { title: '', heading: '', block: [], blocks: [] };
  let inFence = false;
  for (const rawLine of markdown.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(rawLine)) {
      flush(state);
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const heading = HEADING.exec(rawLine);
    if (heading) {
      flush(state);
      const level = heading[1]?.length ?? 1;
      const title = heading[2] ?? '';
      if (level === 1 && state.title === '') state.title = title;
      state.heading = level === 1 ? '' : title;
      continue;
    }
    if (rawLine.trim() === '') flush(state);
    else if (LIST_ITEM.test(rawLine)) {
      flush(state);
      state.block.push(rawLine.replace(LIST_ITEM, ''));
    } else state.block.push(rawLine.trim());
  }
  flush(state);
  if (state.title === '') state.title = fallbackTitle;
  return state;
}

/** Splits one document; `docName` becomes part of each passage id so ids stay unique per chat. */
export function splitMarkdown(markdown: string, docName: string): MarkdownDocument {
  const state = splitBlocks(markdown, docName.replace(/\.md$/i, ''));
  const passages = state.blocks.map((block, order) => ({
    id: `${docName}#${order}`,
    source: 'document' as const,
    docName,
    docTitle: state.title,
    heading: block.heading,
    text: block.text,
    order,
  }));
  return { title: state.title, passages };
}

/** Removes inline markdown syntax, for plain-text answers. */
export function stripMarkdown(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^\w*])[*_]([^*_\s][^*_]*?)[*_](?=[^\w*]|$)/g, '$1$2')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/^#{1,6}\s+/gm, '')
    .replace(LIST_ITEM, '');
}

/** Sentences of a passage, so a long paragraph can be quoted by its relevant sentences only. */
export function splitSentences(text: string): string[] {
  // Split only where a sentence mark is followed by space and a capital, so "€29.00" and "e.g. this" stay whole.
  const sentences = text.split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"“(*€$])/u);
  return sentences.map((sentence) => sentence.trim()).filter((sentence) => sentence.length > 0);
}
