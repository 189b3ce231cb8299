// The error a suite file raises: every problem found, each naming file, line, column and field.
import { editDistance } from '../checks/levenshtein.js';
import { InputError } from '../domain/errors.js';

/** A problem found at a path of the parsed data, before it is given a line and column. */
export interface PathIssue {
  path: readonly PropertyKey[];
  message: string;
  /** Point at this key of the map at `path` rather than at its value (unknown keys). */
  key?: string;
}

function byPosition(a: InputError, b: InputError): number {
  const line = (a.location.line ?? 0) - (b.location.line ?? 0);
  return line !== 0 ? line : (a.location.column ?? 0) - (b.location.column ?? 0);
}

/** All problems of a suite at once, so a user fixes them in one pass rather than one per run. */
export class SuiteError extends InputError {
  readonly issues: InputError[];

  constructor(issues: readonly InputError[]) {
    const sorted = [...issues].sort(byPosition);
    super(sorted.map((issue) => issue.describe()).join('\n'), sorted[0]?.location ?? {});
    this.issues = sorted;
  }

  /** The message already names every location, one problem per line. */
  override describe(): string {
    return this.message;
  }
}

/** `cases[2].assert[0].contains`, `thresholds["ttfc_ms{model:gpt-4o}"][0]`. */
export function formatField(path: readonly PropertyKey[]): string {
  let field = '';
  for (const segment of path) {
    if (typeof segment === 'number') field += `[${segment}]`;
    else if (/^[\w-]+$/.test(String(segment))) field += field === '' ? String(segment) : `.${String(segment)}`;
    else field += `[${JSON.stringify(String(segment))}]`;
  }
  return field;
}

// The one edit distance (checks/levenshtein.ts owns it), re-exported for the suite's messages.
export { editDistance };

/** ` (did you mean "cases"?)` when one candidate is a likely typo of `word`, else ''. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    const target = candidate.toLowerCase();
    // A shortened name (`board` for `board_id`, `streem` for `streaming`) is a typo too.
    const distance = Math.min(editDistance(lower, target), editDistance(lower, target.slice(0, lower.length)) + 1);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best === undefined ? '' : ` (did you mean "${best}"?)`;
}
