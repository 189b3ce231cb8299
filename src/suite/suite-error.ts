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

/** The most problems a message lists; the rest are counted ("and 31 more"), a million bad rows stay one screen. */
export const MAX_LISTED_ISSUES = 20;

/** Each file's problems together (files in the order first met), then by line and column. */
function inFileOrder(issues: readonly InputError[]): InputError[] {
  const rank = new Map<string | undefined, number>();
  for (const issue of issues) if (!rank.has(issue.location.file)) rank.set(issue.location.file, rank.size);
  return [...issues].sort((a, b) => {
    const file = rank.get(a.location.file)! - rank.get(b.location.file)!;
    if (file !== 0) return file;
    const line = (a.location.line ?? 0) - (b.location.line ?? 0);
    return line !== 0 ? line : (a.location.column ?? 0) - (b.location.column ?? 0);
  });
}

/** One problem a line, `file:line:column field: message`, the first MAX_LISTED_ISSUES, then `and N more`. */
export function describeIssues(issues: readonly Pick<InputError, 'describe'>[]): string {
  const listed = issues.slice(0, MAX_LISTED_ISSUES).map((issue) => issue.describe());
  if (issues.length > MAX_LISTED_ISSUES) listed.push(`and ${issues.length - MAX_LISTED_ISSUES} more`);
  return listed.join('\n');
}

/** All problems of a suite at once, so a user fixes them in one pass rather than one per run. */
export class SuiteError extends InputError {
  readonly issues: InputError[];

  constructor(issues: readonly InputError[]) {
    const sorted = inFileOrder(issues);
    super(describeIssues(sorted), sorted[0]?.location ?? {});
    this.issues = sorted;
  }

  /** The message already names every location, one problem per line. */
  override describe(): string {
    return this.message;
  }
}

/** The problems an error carries: a SuiteError's every one, an InputError itself; anything else is thrown on. */
export function issuesOf(error: unknown): InputError[] {
  if (error instanceof SuiteError) return error.issues;
  if (error instanceof InputError) return [error];
  throw error;
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
