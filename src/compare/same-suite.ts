// Two runs of different suites share few questions: comparing them says nothing, so it is refused unless asked for.
import { InputError } from '../domain/errors.js';

export interface SuiteOfRun {
  /** The suite's name (run.json `suite.name`). */
  name: string;
  /** The directory or file it comes from, for the message. */
  where: string;
}

/**
 * Throws InputError (exit 2) naming both suites when their names differ. The name is what a
 * team keeps across edits of a suite file; another name means another knowledge base or purpose,
 * where a few shared ids (`refund-window`) would be matched as if they were one question.
 */
export function assertSameSuite(base: SuiteOfRun, head: SuiteOfRun, roles: { base: string; head: string }): void {
  if (base.name === head.name) return;
  throw new InputError(
    `different suites: ${roles.base} (${base.where}) is of suite "${base.name}", ${roles.head} (${head.where}) of suite "${head.name}"; ` +
      'their items are not the same questions. Give --allow-different-suites to compare them anyway',
    { field: '--allow-different-suites' },
  );
}
