// The item-by-item reading of a YAML suite (cut by yaml-split.ts), built as it is parsed: each run
// of items is parsed, validated with the case or thread schema and built, and only the built items
// stay (their raw values, Document and positions are dropped with the run). Holding every item's
// raw value, a positions map and a zod copy at once took ~10× the built suite (100k one-turn
// threads in 4.7 MB: 450 MB). Null whenever the whole parse could say more (an invalid item, a
// duplicate id, a misnumbered turn, a bad threshold…): the caller then reads the file whole, so
// every error message stays the whole parse's.
import { LineCounter, parseDocument } from 'yaml';
import { InputError } from '../domain/errors.js';
import type { SourceLocation } from '../domain/suite.js';
import type { ParsedSuite } from './parsed-suite.js';
import { idOf, thresholdIssues, turnNumberIssues } from './semantic.js';
import { formatField } from './suite-error.js';
import { buildCase, buildSuite, buildThread, caseModelWarnings, threadModelWarnings, type BuiltItems, type SuiteLocator } from './yaml-build.js';
import { YamlLocator } from './yaml-locator.js';
import { caseSchema, suiteFileSchema, threadSchema, type SuiteFile } from './yaml-schema.js';
import { splitYamlSuite, type SectionKey } from './yaml-split.js';

/** Items parsed as one Document: its nodes (~40-180 bytes of memory per byte of text) are dropped after. */
const ITEMS_PER_DOCUMENT = 50;
const CHARS_PER_DOCUMENT = 64 * 1024;

/** Parses YAML text to its plain value with positions, or null when it has errors. */
function parsePlain(text: string, file: string): { value: unknown; locator: YamlLocator } | null {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) return null;
  try {
    return { value: doc.toJS({ maxAliasCount: 1000 }), locator: new YamlLocator(doc, lines, file) };
  } catch {
    return null;
  }
}

/** Answers for item `local` of a run parsed alone, whose first line is `firstLine` of the file. */
class ItemLocator implements SuiteLocator {
  constructor(
    private readonly run: YamlLocator,
    private readonly local: number,
    private readonly firstLine: number,
    private readonly file: string,
  ) {}

  location(path: readonly PropertyKey[]): SourceLocation {
    const { line, column } = this.run.position([this.local, ...path.slice(2)]);
    // A literal (not a spread of the run's location): one object of three fields per item kept.
    return { file: this.file, line: line + this.firstLine, column };
  }

  warning(path: readonly PropertyKey[], message: string): string {
    const at = this.location(path);
    const name = formatField(path);
    return new InputError(message, { file: at.file, line: at.line, column: at.column, ...(name ? { field: name } : {}) }).describe();
  }
}

/** Validates and builds one raw item into `items`; false when the whole parse must judge it. */
function addItem(key: SectionKey, raw: unknown, index: number, locator: SuiteLocator, head: SuiteFile, items: BuiltItems): boolean {
  if (key === 'cases') {
    const parsed = caseSchema.safeParse(raw);
    if (!parsed.success) return false;
    items.cases.push(buildCase(parsed.data, index, locator));
    items.warnings.push(...caseModelWarnings(parsed.data, index, locator));
    for (const tag of parsed.data.tags ?? []) items.tags.add(tag);
    return true;
  }
  if (turnNumberIssues({ threads: [raw] }).length > 0) return false;
  const parsed = threadSchema.safeParse(raw);
  if (!parsed.success) return false;
  items.threads.push(buildThread(parsed.data, index, locator, head.think_time));
  items.warnings.push(...threadModelWarnings(parsed.data, index, locator));
  for (const tag of parsed.data.tags ?? []) items.tags.add(tag);
  return true;
}

export function parseStreamedYamlSuite(text: string, file: string): ParsedSuite | null {
  const split = splitYamlSuite(text);
  if (split === null || (!split.sections.cases && !split.sections.threads)) return null;
  const skeleton = parsePlain(split.skeleton, file);
  if (skeleton === null) return null;
  const top = skeleton.value;
  if (top === null || typeof top !== 'object' || Array.isArray(top)) return null;
  const rest = top as Record<string, unknown>;
  for (const key of ['cases', 'threads'] as const) if (split.sections[key] && rest[key] !== null && rest[key] !== undefined) return null;
  const { cases: _cases, threads: _threads, ...keys } = rest;
  const head = suiteFileSchema.safeParse(keys);
  if (!head.success || thresholdIssues(keys).length > 0) return null;
  const items: BuiltItems = { cases: [], threads: [], warnings: [], tags: new Set() };
  // Ids are unique across cases and threads: the only state kept across items besides the built ones.
  const ids = new Set<string>();
  // Cases before threads, as the whole reading builds them (tags and warnings keep that order).
  for (const key of ['cases', 'threads'] as const) {
    const cut = split.sections[key] ?? [];
    for (let from = 0; from < cut.length; ) {
      // Up to ITEMS_PER_DOCUMENT items, or fewer when they are long (one long prompt is parsed alone).
      let to = from + 1;
      while (to < cut.length && to - from < ITEMS_PER_DOCUMENT && cut[to]!.end - cut[from]!.start < CHARS_PER_DOCUMENT) to += 1;
      const firstLine = cut[from]!.firstLine;
      const run = parsePlain(text.slice(cut[from]!.start, cut[to - 1]!.end), file);
      if (run === null || !Array.isArray(run.value) || run.value.length !== to - from) return null;
      const values = run.value as unknown[];
      for (let j = 0; j < values.length; j += 1) {
        const id = idOf(values[j]);
        if (id) {
          if (ids.has(id)) return null;
          ids.add(id);
        }
        if (!addItem(key, values[j], from + j, new ItemLocator(run.locator, j, firstLine, file), head.data, items)) return null;
      }
      from = to;
    }
  }
  return buildSuite(head.data, skeleton.locator, items);
}
