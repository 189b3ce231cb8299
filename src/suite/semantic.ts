// Suite checks that span elements (duplicate ids, turn numbers, thresholds), run on raw data so
// they report even when other parts of the file are malformed.
import { parseThresholdExpression, parseThresholdKey } from '../metrics/threshold-parser.js';
import { InputError } from '../domain/errors.js';
import { isKnownModel, KNOWN_MODELS } from '../protocol/models.js';
import { formatField, type PathIssue } from './suite-error.js';

export interface IdEntry<T> {
  id: string;
  ref: T;
}

/** Every later occurrence of an id, with the first one it repeats. */
export function findDuplicateIds<T>(entries: readonly IdEntry<T>[]): { id: string; first: T; duplicate: T }[] {
  const seen = new Map<string, T>();
  const duplicates: { id: string; first: T; duplicate: T }[] = [];
  for (const entry of entries) {
    const first = seen.get(entry.id);
    if (first === undefined) seen.set(entry.id, entry.ref);
    else duplicates.push({ id: entry.id, first, duplicate: entry.ref });
  }
  return duplicates;
}

export function unknownModelWarning(model: string): string {
  return `unknown model "${model}" (known: ${KNOWN_MODELS.join(', ')}); it will be sent as written`;
}

export function isUnknownModel(model: string): boolean {
  return !isKnownModel(model);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function listAt(raw: Record<string, unknown>, key: string): unknown[] {
  const value = raw[key];
  return Array.isArray(value) ? value : [];
}

export function idOf(element: unknown): string | undefined {
  if (!isRecord(element)) return undefined;
  const id = element.id;
  return typeof id === 'string' || typeof id === 'number' ? String(id).trim() : undefined;
}

/** The line a path was written on, for messages that refer to another element. */
export type LineOf = (path: readonly PropertyKey[]) => number;

function duplicateIdIssues(raw: Record<string, unknown>, lineOf: LineOf): PathIssue[] {
  const entries: IdEntry<readonly PropertyKey[]>[] = [];
  for (const kind of ['cases', 'threads'] as const) {
    listAt(raw, kind).forEach((element, index) => {
      const id = idOf(element);
      if (id) entries.push({ id, ref: [kind, index, 'id'] });
    });
  }
  return findDuplicateIds(entries).map(({ id, first, duplicate }) => ({
    path: duplicate,
    message: `duplicate id "${id}" (first used by ${formatField(first.slice(0, 2))} on line ${lineOf(first)}); ids must be unique across cases and threads`,
  }));
}

/** A turn may state its number; it must then be its position, so none is skipped or repeated. */
export function turnNumberIssues(raw: Record<string, unknown>): PathIssue[] {
  const issues: PathIssue[] = [];
  listAt(raw, 'threads').forEach((thread, t) => {
    if (!isRecord(thread) || !Array.isArray(thread.turns)) return;
    thread.turns.forEach((turn, index) => {
      if (!isRecord(turn) || typeof turn.turn !== 'number' || turn.turn === index + 1) return;
      const message = `turn ${turn.turn} is turn ${index + 1} of thread "${idOf(thread) ?? t}"; turns are numbered 1, 2, 3… in order, none skipped or repeated`;
      issues.push({ path: ['threads', t, 'turns', index, 'turn'], message });
    });
  });
  return issues;
}

export function thresholdIssues(raw: Record<string, unknown>): PathIssue[] {
  const thresholds = raw.thresholds;
  if (!isRecord(thresholds)) return [];
  const issues: PathIssue[] = [];
  for (const [key, value] of Object.entries(thresholds)) {
    let metric;
    try {
      metric = parseThresholdKey(key).metric;
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      issues.push({ path: ['thresholds'], key, message: error.message });
      continue;
    }
    const expressions: unknown[] = Array.isArray(value) ? value : [value];
    expressions.forEach((expression, index) => {
      const text = typeof expression === 'object' && expression !== null && 'threshold' in expression ? (expression as { threshold: unknown }).threshold : expression;
      if (typeof text !== 'string') return; // the schema reports the wrong type
      try {
        parseThresholdExpression(metric, text, key.trim());
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        issues.push({ path: Array.isArray(value) ? ['thresholds', key, index] : ['thresholds', key], message: error.message });
      }
    });
  }
  return issues;
}

function emptySuiteIssues(raw: Record<string, unknown>): PathIssue[] {
  // A `cases:` that is not a list is the schema's to report; this is only about having none.
  const present = (key: string): boolean => (Array.isArray(raw[key]) ? listAt(raw, key).length > 0 : raw[key] !== undefined && raw[key] !== null);
  if (present('cases') || present('threads')) return [];
  // A suite that replays a traffic log asks the log's records: it needs no items of its own.
  const load = raw.load;
  if (typeof load === 'object' && load !== null && (load as Record<string, unknown>).traffic !== undefined) return [];
  return [{ path: [], message: 'the suite has no cases and no threads; add a `cases:` or `threads:` list (or replay a log: `load: { traffic: FILE }`)' }];
}

/** The cross-element problems of a raw YAML suite. */
export function semanticIssues(raw: Record<string, unknown>, lineOf: LineOf): PathIssue[] {
  return [...emptySuiteIssues(raw), ...duplicateIdIssues(raw, lineOf), ...turnNumberIssues(raw), ...thresholdIssues(raw)];
}
