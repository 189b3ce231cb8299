// The item-by-item reading of a YAML suite (yaml-split.ts): the suite's plain value and a locator
// that answers from the positions kept for each item, or null to read the file whole.
import { LineCounter, parseDocument } from 'yaml';
import { InputError } from '../domain/errors.js';
import type { SourceLocation } from '../domain/suite.js';
import { formatField } from './suite-error.js';
import { YamlLocator } from './yaml-locator.js';
import { parseItems, splitYamlSuite, type SectionKey } from './yaml-split.js';

/** Items parsed as one Document: its nodes (~40-180 bytes of memory per byte of text) are dropped after. */
const ITEMS_PER_DOCUMENT = 50;
const CHARS_PER_DOCUMENT = 64 * 1024;

const indices = (list: unknown): number[] => (Array.isArray(list) ? list.map((_, i) => i) : []);
const field = (value: unknown, key: string): unknown => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined);

/** The parts of a case or thread whose position the suite keeps (checks, turns, model names). */
const PATHS: Record<SectionKey, (value: unknown) => (readonly PropertyKey[])[]> = {
  cases: (value) => [...indices(field(value, 'assert')).map((k) => ['assert', k]), ...indices(field(value, 'models')).map((j) => ['models', j])],
  threads: (value) => {
    const turns = field(value, 'turns');
    return [
      ...indices(field(value, 'models')).map((j) => ['models', j]),
      ...indices(turns).flatMap((t) => [['turns', t], ...indices(field((turns as unknown[])[t], 'assert')).map((k) => ['turns', t, 'assert', k])]),
    ];
  },
};

export class SplitLocator {
  constructor(
    private readonly skeleton: YamlLocator,
    private readonly positions: Map<string, SourceLocation>,
  ) {}

  location(path: readonly PropertyKey[]): SourceLocation {
    return this.positions.get(path.join('.')) ?? this.positions.get(path.slice(0, 2).join('.')) ?? this.skeleton.location(path);
  }

  warning(path: readonly PropertyKey[], message: string): string {
    const at = this.location(path);
    const name = formatField(path);
    return new InputError(message, { file: at.file, line: at.line, column: at.column, ...(name ? { field: name } : {}) }).describe();
  }
}

export function readSplit(text: string, file: string): { value: Record<string, unknown>; locator: SplitLocator } | null {
  const split = splitYamlSuite(text);
  if (split === null || (!split.sections.cases && !split.sections.threads)) return null;
  const lines = new LineCounter();
  const doc = parseDocument(split.skeleton, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) return null;
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 1000 });
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const suite = value as Record<string, unknown>;
  const positions = new Map<string, SourceLocation>();
  for (const key of ['cases', 'threads'] as const) {
    const items = split.sections[key];
    if (!items) continue;
    if (suite[key] !== null && suite[key] !== undefined) return null;
    const values: unknown[] = [];
    for (let from = 0; from < items.length; ) {
      // Up to ITEMS_PER_DOCUMENT items, or fewer when they are long (one long prompt is parsed alone).
      let to = from + 1;
      while (to < items.length && to - from < ITEMS_PER_DOCUMENT && items[to]!.end - items[from]!.start < CHARS_PER_DOCUMENT) to += 1;
      const run = items.slice(from, to);
      const parsed = parseItems(text.slice(run[0]!.start, run.at(-1)!.end), run[0]!.firstLine, run.length, file, PATHS[key]);
      if (parsed === null) return null;
      parsed.values.forEach((v, j) => {
        values.push(v);
        for (const [path, at] of parsed.positions[j]!) positions.set(path === '' ? `${key}.${from + j}` : `${key}.${from + j}.${path}`, at);
      });
      from = to;
    }
    suite[key] = values;
  }
  return { value: suite, locator: new SplitLocator(new YamlLocator(doc, lines, file), positions) };
}
