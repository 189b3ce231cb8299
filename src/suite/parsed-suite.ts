// What a format reader produces: a Suite before the loader adds path, hash and defaults.
import type { SourceLocation, Suite } from '../domain/suite.js';

/** A `- file://questions.csv` entry of `cases:` or `threads:`; `after`: how many of that key's own items come before it. */
export interface SuiteInclude {
  key: 'cases' | 'threads';
  entry: string;
  after: number;
  location: SourceLocation;
}

export type ParsedSuite = Omit<Suite, 'name' | 'path' | 'sha256' | 'workspace'> & {
  /** As written; the loader falls back to the file's base name. */
  name?: string;
  /** As written; the loader resolves it against the suite file's folder. */
  workspace?: string;
  /** The files its `cases:`/`threads:` include, read by the loader (combine.ts). */
  includes?: SuiteInclude[];
};
