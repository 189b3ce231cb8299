// One reader of "which files does this entry name": a suite's `file://` includes (kbbench's own
// and promptfoo's `tests: file://…`), `knowledge:` documents and workspace `documents:` all go
// through it, so a glob means the same thing everywhere.
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';

/** promptfoo's convention for "this entry is a file, not a value". */
export const FILE_PREFIX = 'file://';

export function isFileReference(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(FILE_PREFIX);
}

function globToRegExp(pattern: string): RegExp {
  const body = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]');
  return new RegExp(`^${body}$`);
}

/**
 * `docs/*.md` or a file: `*` and `?` in the file name only (the folder is written out), sorted so
 * a run's order does not depend on the file system. A name without a wildcard is returned only
 * when it is a regular file; a pattern that matches nothing gives [] (the caller names the field).
 */
export function expandPattern(pattern: string): string[] {
  const name = basename(pattern);
  if (!/[*?]/.test(name)) {
    try {
      return statSync(pattern).isFile() ? [pattern] : [];
    } catch {
      return [];
    }
  }
  const folder = dirname(pattern);
  let entries: string[];
  try {
    entries = readdirSync(folder);
  } catch {
    return [];
  }
  const matcher = globToRegExp(name);
  return entries
    .filter((entry) => matcher.test(entry))
    .sort()
    .map((entry) => join(folder, entry))
    .filter((file) => {
      try {
        return statSync(file).isFile();
      } catch {
        return false;
      }
    });
}

/**
 * The files one include names, relative to the including file's folder: `file://questions.csv`,
 * `file://cases/*.yaml` or a plain path. [] when nothing matches.
 */
export function resolveInclude(entry: string, fromFile: string): string[] {
  const path = entry.startsWith(FILE_PREFIX) ? entry.slice(FILE_PREFIX.length) : entry;
  const absolute = isAbsolute(path) ? path : resolve(dirname(fromFile), path);
  return expandPattern(absolute);
}
