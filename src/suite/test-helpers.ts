// Shared by the suite readers' tests: what a reader said of a suite it refused.
import { SuiteError } from './suite-error.js';

/** Each problem `read` reported, as its one line; a suite accepted, or another error, fails the test. */
export function suiteIssuesOf(read: () => unknown): string[] {
  try {
    read();
  } catch (error) {
    if (!(error instanceof SuiteError)) throw error;
    return error.issues.map((issue) => issue.describe());
  }
  throw new Error('expected the suite to be rejected');
}
