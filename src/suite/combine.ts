// Several suite files as one suite: `kbbench run a.csv b.yaml …` and a YAML suite's `- file://…`
// includes. One plan, one run directory, one model comparison; ids unique across the files.
import { createHash } from 'node:crypto';
import { InputError } from '../domain/errors.js';
import type { CaseList, SourceLocation, Suite, SuiteCase, SuiteThread } from '../domain/suite.js';
import { SuiteError } from './suite-error.js';

/** Case lists one after another, read by position (a CSV's stay lazy). */
class JoinedCases implements CaseList {
  readonly length: number;
  readonly restrictsModels?: boolean;

  constructor(private readonly lists: readonly CaseList[]) {
    this.length = lists.reduce((sum, list) => sum + list.length, 0);
    if (lists.every((list) => list.restrictsModels === false)) this.restrictsModels = false;
  }

  at(index: number): SuiteCase | undefined {
    let k = Math.trunc(index) || 0;
    if (k < 0) k += this.length;
    if (k < 0 || k >= this.length) return undefined;
    for (const list of this.lists) {
      if (k < list.length) return list.at(k);
      k -= list.length;
    }
    return undefined;
  }

  *[Symbol.iterator](): IterableIterator<SuiteCase> {
    for (const list of this.lists) yield* list;
  }
}

export function joinCases(lists: readonly CaseList[]): CaseList {
  const nonEmpty = lists.filter((list) => list.length > 0);
  if (nonEmpty.length === 1) return nonEmpty[0]!;
  return nonEmpty.length === 0 ? [] : new JoinedCases(nonEmpty);
}

const where = (location: SourceLocation): string => [location.file, location.line].filter((p) => p !== undefined).join(':');

/** Every id used twice across the parts, as errors naming both places. */
export function duplicateIdErrors(cases: CaseList, threads: readonly SuiteThread[]): InputError[] {
  const seen = new Map<string, SourceLocation>();
  const errors: InputError[] = [];
  const visit = (id: string, location: SourceLocation): void => {
    const first = seen.get(id);
    if (first === undefined) seen.set(id, location);
    else if (errors.length < 20) errors.push(new InputError(`duplicate id "${id}": also at ${where(first)}; ids must be unique across every file of a run`, location));
  };
  for (const entry of cases) visit(entry.id, entry.location);
  for (const thread of threads) visit(thread.id, thread.location);
  return errors;
}

/** The settings a suite file may give (everything but its items); two files giving one differently is an input error. */
const SETTINGS = ['models', 'workspace', 'repeat_pass', 'load', 'grader', 'knowledge'] as const;

const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(withoutLocation(a)) === JSON.stringify(withoutLocation(b));
function withoutLocation(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const { location: _location, ...rest } = value as Record<string, unknown>;
  return rest;
}
const isSet = (value: unknown): boolean => value !== undefined && !(Array.isArray(value) && value.length === 0);

/** One map from several files' maps (target, defaults, thresholds): a key given twice must be given alike. */
function mergeMaps<T extends object>(parts: readonly Suite[], pick: (suite: Suite) => T, field: string, errors: InputError[]): T {
  const merged: Record<string, unknown> = {};
  const from: Record<string, string> = {};
  for (const part of parts) {
    for (const [key, value] of Object.entries(pick(part))) {
      if (value === undefined) continue;
      if (key in merged && !sameValue(merged[key], value)) {
        errors.push(new InputError(`${field}.${key} is set differently in ${from[key]} and here; give it once (in one file) or alike`, { file: part.path, field: `${field}.${key}` }));
      } else if (!(key in merged)) {
        merged[key] = value;
        from[key] = part.path;
      }
    }
  }
  return merged as T;
}

/**
 * One suite of several: the first part names it (and its path), its settings are what the parts
 * give (each setting once, or alike), its items the parts' in order. `cases`/`threads` override the
 * plain concatenation (an include puts its items where it was written).
 */
export function combineSuites(parts: readonly Suite[], items?: { cases: CaseList; threads: SuiteThread[] }): Suite {
  const [first] = parts;
  if (first === undefined) throw new InputError('name at least one suite file');
  if (parts.length === 1 && items === undefined) return first;
  const errors: InputError[] = [];
  const combined: Suite = {
    name: first.name,
    path: first.path,
    sha256: createHash('sha256').update(parts.map((part) => part.sha256).join('\n')).digest('hex'),
    files: parts.flatMap((part) => part.files ?? [part.path]),
    target: mergeMaps(parts, (s) => s.target, 'target', errors),
    defaults: mergeMaps(parts, (s) => s.defaults, 'defaults', errors),
    thresholds: mergeMaps(parts, (s) => s.thresholds, 'thresholds', errors),
    models: [],
    cases: items?.cases ?? joinCases(parts.map((part) => part.cases)),
    threads: items?.threads ?? parts.flatMap((part) => part.threads),
    warnings: parts.flatMap((part) => part.warnings),
  };
  for (const key of SETTINGS) {
    const givers = parts.filter((part) => isSet(part[key]));
    const [giver, ...others] = givers;
    if (giver === undefined) continue;
    const other = others.find((part) => !sameValue(part[key], giver[key]));
    if (other) errors.push(new InputError(`${key} is set differently in ${giver.path} and here; give it once (in one file) or alike`, { file: other.path, field: key }));
    (combined as unknown as Record<string, unknown>)[key] = giver[key];
  }
  const aborts = parts.flatMap((part) => part.threshold_aborts ?? []).filter((abort, i, all) => all.findIndex((a) => sameValue(a, abort)) === i);
  if (aborts.length > 0) combined.threshold_aborts = aborts;
  const tags = [...new Set(parts.flatMap((part) => part.tags ?? []))];
  if (tags.length > 0) combined.tags = tags;
  const twice = combined.files!.find((file, i, all) => all.indexOf(file) !== i);
  // A file read twice (named and also included) would repeat every id: say that once instead.
  if (twice !== undefined) errors.push(new InputError(`${twice} is read twice (named on the command line and included, or included twice); name it once`, { file: twice }));
  else errors.push(...duplicateIdErrors(combined.cases, combined.threads));
  if (errors.length > 0) throw new SuiteError(errors.slice(0, 20));
  return combined;
}
