// Narrows a suite to the cases and threads a `--filter` (or `--only-failed`) selects, before planning.
import { InputError } from '../domain/errors.js';
import type { CaseList, Suite, SuiteCase, SuiteThread } from '../domain/suite.js';

/** What a filter sees of a case or thread. */
export interface FilterSubject {
  kind: 'case' | 'thread';
  id: string;
  tags: readonly string[];
}

export type SuiteFilter = (subject: FilterSubject) => boolean;

function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

/**
 * One `--filter` pattern. `refund-*` (a glob: `*` any run, `?` one character) or `/^refund/i` (a
 * regular expression between slashes) matches a case or thread whose id, or one of whose tags,
 * matches; `id:…` looks at ids only and `tag:…` at tags only.
 */
export function parseFilter(pattern: string): SuiteFilter {
  const text = pattern.trim();
  const scoped = /^(id|tag):([\s\S]+)$/.exec(text);
  const where = scoped?.[1] ?? 'any';
  const body = scoped?.[2] ?? text;
  if (body === '') throw new InputError('an empty pattern matches nothing: give an id, a tag, a glob (refund-*) or /regex/', { field: '--filter' });
  let matcher: RegExp;
  const regex = /^\/([\s\S]+)\/([a-z]*)$/.exec(body);
  try {
    matcher = regex ? new RegExp(regex[1]!, regex[2]!.replace(/[gy]/g, '')) : globToRegExp(body);
  } catch (error) {
    throw new InputError(`invalid regular expression ${body}: ${(error as Error).message}`, { field: '--filter' });
  }
  return (subject) =>
    (where !== 'tag' && matcher.test(subject.id)) || (where !== 'id' && subject.tags.some((tag) => matcher.test(tag)));
}

/** Several patterns: an item is kept when any of them matches. */
export function parseFilters(patterns: readonly string[]): SuiteFilter | undefined {
  if (patterns.length === 0) return undefined;
  const filters = patterns.map(parseFilter);
  return (subject) => filters.some((filter) => filter(subject));
}

/** The kept positions of a case list, 4 bytes each: a million-row CSV is not read into objects. */
class FilteredCases implements CaseList {
  readonly length: number;
  readonly restrictsModels?: boolean;

  constructor(
    private readonly all: CaseList,
    private readonly kept: Uint32Array,
  ) {
    this.length = kept.length;
    if (all.restrictsModels !== undefined) this.restrictsModels = all.restrictsModels;
  }

  at(index: number): SuiteCase | undefined {
    const whole = Math.trunc(index) || 0;
    const k = whole < 0 ? whole + this.length : whole;
    if (k < 0 || k >= this.length) return undefined;
    return this.all.at(this.kept[k]!);
  }

  *[Symbol.iterator](): IterableIterator<SuiteCase> {
    for (let k = 0; k < this.length; k += 1) yield this.at(k)!;
  }
}

const subjectOf = (kind: 'case' | 'thread', entry: SuiteCase | SuiteThread): FilterSubject => ({ kind, id: entry.id, tags: entry.tags ?? [] });

/** The suite with only the cases and threads `keep` selects (ids and order unchanged). */
export function filterSuite(suite: Suite, keep: SuiteFilter): Suite {
  let kept = new Uint32Array(Math.min(suite.cases.length, 1024));
  let count = 0;
  let index = 0;
  for (const entry of suite.cases) {
    if (keep(subjectOf('case', entry))) {
      if (count === kept.length) {
        const grown = new Uint32Array(kept.length * 2);
        grown.set(kept);
        kept = grown;
      }
      kept[count] = index;
      count += 1;
    }
    index += 1;
  }
  const cases = new FilteredCases(suite.cases, kept.slice(0, count));
  return { ...suite, cases, threads: suite.threads.filter((thread) => keep(subjectOf('thread', thread))) };
}
