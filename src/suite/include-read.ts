// Puts what a YAML suite's `- file://…` entries name in their place: the included files' cases where
// the `cases:` entry was, their threads where the `threads:` entry was (the rest after the suite's own).
import { InputError } from '../domain/errors.js';
import type { CaseList, Suite, SuiteCase, SuiteThread } from '../domain/suite.js';
import { combineSuites, joinCases } from './combine.js';
import { resolveInclude } from './include.js';
import { issuesOf, SuiteError } from './suite-error.js';
import type { SuiteInclude } from './parsed-suite.js';

/** Reads one included file; `chain` is the files including it, to refuse a file that includes itself. */
export type ReadIncluded = (path: string, chain: readonly string[]) => Suite;

export function withIncludes(suite: Suite, includes: readonly SuiteInclude[], chain: readonly string[], read: ReadIncluded): Suite {
  const own = { cases: [...suite.cases] as SuiteCase[], threads: suite.threads };
  const cases: CaseList[] = [];
  const threads: SuiteThread[] = [];
  const later = { cases: [] as CaseList[], threads: [] as SuiteThread[] };
  const taken = { cases: 0, threads: 0 };
  const parts: Suite[] = [{ ...suite, cases: [], threads: [] }];
  // Every included file is read to its end: its problems are named beside the others', in one exit.
  const problems: InputError[] = [];
  for (const include of includes) {
    const files = resolveInclude(include.entry, suite.path);
    if (files.length === 0) problems.push(new InputError(`${include.entry} names no file (relative to the suite's folder; * and ? in the file name match)`, include.location));
    if (include.key === 'cases') cases.push(own.cases.slice(taken.cases, include.after));
    else threads.push(...own.threads.slice(taken.threads, include.after));
    taken[include.key] = include.after;
    for (const file of files) {
      if (chain.includes(file)) {
        problems.push(new InputError(`${include.entry} includes ${file}, which includes this file: an include cannot loop`, include.location));
        continue;
      }
      let included: Suite;
      try {
        included = read(file, chain);
      } catch (error) {
        problems.push(...issuesOf(error));
        continue;
      }
      parts.push({ ...included, cases: [], threads: [] });
      if (include.key === 'cases') {
        cases.push(included.cases);
        later.threads.push(...included.threads);
      } else {
        threads.push(...included.threads);
        later.cases.push(included.cases);
      }
    }
  }
  if (problems.length > 0) throw new SuiteError(problems);
  cases.push(own.cases.slice(taken.cases), ...later.cases);
  threads.push(...own.threads.slice(taken.threads), ...later.threads);
  return combineSuites(parts, { cases: joinCases(cases), threads });
}
