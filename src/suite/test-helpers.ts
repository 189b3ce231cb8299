// Shared by the suite readers' tests: what a reader said of a suite it refused.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SuiteError } from './suite-error.js';

/** A fresh folder holding `files` (name → text), for suites that name or include each other. */
export function suiteFolder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'kbbench-suite-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

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
