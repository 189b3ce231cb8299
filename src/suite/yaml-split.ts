// A YAML suite read item by item: a `yaml` Document costs ~40-180 times its text in memory (a node
// object, with its range, for every scalar), so 100k one-turn threads in 5 MB took 900 MB. The
// top-level `cases:` and `threads:` sequences are cut at their items, each item is parsed alone
// (its Document dropped once its values and the positions the suite keeps are taken), and the rest
// of the file (the skeleton, with the items' lines blanked so lines keep their numbers) is parsed
// whole. Anything outside that plain shape (flow sequences, document markers, aliases across
// items, tabs, odd keys) gives null, and the caller parses the whole file as before; so does any
// invalid item, so every error message stays the whole parse's.

export type SectionKey = 'cases' | 'threads';

export interface SplitSuite {
  /** The file with the items' lines blanked: every other key, at its own line. */
  skeleton: string;
  sections: Partial<Record<SectionKey, { start: number; end: number; firstLine: number }[]>>;
}

const TOP_KEY = /^\uFEFF?([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:(?:[ \t]|\r?$)/;
const SECTION_LINE = /^(cases|threads)[ \t]*:[ \t]*(?:#.*)?\r?$/;
const ITEM_START = /^( *)-(?:[ \t]|\r?$)/;

interface Cursor {
  key: SectionKey | null;
  seqIndent: number | null;
}

/** Where each item of `cases:` and `threads:` begins and ends (character offsets), or null. */
export function splitYamlSuite(text: string): SplitSuite | null {
  const sections: SplitSuite['sections'] = {};
  const skeleton: string[] = [];
  const cursor: Cursor = { key: null, seqIndent: null };
  let open: { start: number; firstLine: number } | null = null;
  let offset = 0;
  let lineNo = 0;
  const close = (end: number): void => {
    if (open && cursor.key) (sections[cursor.key] ??= []).push({ start: open.start, end, firstLine: open.firstLine });
    open = null;
  };
  for (;;) {
    const newline = text.indexOf('\n', offset);
    const end = newline === -1 ? text.length : newline + 1;
    const line = text.slice(offset, newline === -1 ? text.length : newline);
    const kind = classify(line, cursor);
    if (kind === null) return null;
    if (kind === 'top') close(offset);
    if (kind === 'item') {
      close(offset);
      open = { start: offset, firstLine: lineNo };
    }
    if (kind === 'top' && SECTION_LINE.test(line)) {
      const key = /^(cases|threads)/.exec(line)![1] as SectionKey;
      if (sections[key]) return null; // a key twice: the whole parse says so
      cursor.key = key;
      cursor.seqIndent = null;
    } else if (kind === 'top') {
      if (/^(cases|threads)[ \t]*:/.test(line)) return null; // a flow sequence or a scalar: parse whole
      cursor.key = null;
    }
    skeleton.push(open === null ? line : '');
    offset = end;
    lineNo += 1;
    if (newline === -1) break;
  }
  close(text.length);
  return { skeleton: skeleton.join('\n'), sections };
}

type LineKind = 'top' | 'item' | 'inside' | 'blank';

function classify(line: string, cursor: Cursor): LineKind | null {
  const trimmed = line.trimStart();
  if (trimmed === '' || trimmed === '\r' || trimmed.startsWith('#')) return 'blank';
  if (/^[ ]*\t/.test(line)) return null;
  const indent = line.length - trimmed.length;
  if (indent === 0) {
    if (/^(---|\.\.\.|%)/.test(line)) return null;
    // A sequence at column 0 belongs to the key above it: another key's is its value, kept whole.
    if (ITEM_START.test(line)) return cursor.key === null ? 'inside' : (cursor.seqIndent ?? 0) === 0 ? itemAt(0, cursor) : null;
    return TOP_KEY.test(line) ? 'top' : null;
  }
  if (cursor.key === null) return 'inside';
  const item = ITEM_START.exec(line);
  if (cursor.seqIndent === null) return item ? itemAt(indent, cursor) : null;
  if (indent === cursor.seqIndent) return item ? 'item' : null;
  return indent < cursor.seqIndent ? null : 'inside';
}

function itemAt(indent: number, cursor: Cursor): LineKind {
  cursor.seqIndent ??= indent;
  return 'item';
}
