// What a format reader produces: a Suite before the loader adds path, hash and defaults.
import type { Suite } from '../domain/suite.js';

export type ParsedSuite = Omit<Suite, 'name' | 'path' | 'sha256' | 'workspace'> & {
  /** As written; the loader falls back to the file's base name. */
  name?: string;
  /** As written; the loader resolves it against the suite file's folder. */
  workspace?: string;
};
