// The one atomic writer of a run directory: a file is written whole under a temporary name and renamed,
// so a crash never leaves half a run.json or half a report, and a failed write leaves no temp file.
import { randomBytes } from 'node:crypto';
import { createWriteStream, linkSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { storageError } from './storage-error.js';

/** Random, not the pid: two report builds of one run must not share a temp file. */
function tempPathOf(path: string): string {
  return `${path}.tmp-${randomBytes(4).toString('hex')}`;
}

export async function writeFileAtomic(path: string, content: string): Promise<string> {
  const temp = tempPathOf(path);
  try {
    await writeFile(temp, content, 'utf8');
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw storageError(path, error);
  }
  return path;
}

/** The same, synchronously: run.json is written at moments (start, a signal) that must not wait. */
export function writeFileAtomicSync(path: string, content: string): string {
  const temp = tempPathOf(path);
  try {
    writeFileSync(temp, content, 'utf8');
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw storageError(path, error);
  }
  return path;
}

/**
 * Creates `path` whole, or throws EEXIST when it exists (the run lock's exclusive create). A file made
 * with O_EXCL is empty for a moment, and a racer reading it then took it for a lock half-written by a
 * killed process; a hard link of a written temp file appears whole. Where the file system has no hard
 * links, O_EXCL it is. Errors pass as they come (not storageError): the lock reads their `code`.
 */
export function createFileWholeSync(path: string, content: string): void {
  const temp = tempPathOf(path);
  writeFileSync(temp, content, 'utf8');
  try {
    linkSync(temp, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
    writeFileSync(path, content, { encoding: 'utf8', flag: 'wx' });
  } finally {
    rmSync(temp, { force: true });
  }
}

/** Streams a readable (a CSV stringifier, a page built in parts) into `path` through a temp file. */
export async function streamFileAtomic(path: string, source: Readable | AsyncIterable<string>): Promise<string> {
  const temp = tempPathOf(path);
  try {
    await pipeline(source, createWriteStream(temp, { encoding: 'utf8' }));
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    // A failure of the source (a report's own bug) is not a storage failure: passed on as it is.
    throw (error as NodeJS.ErrnoException).code?.startsWith('E') && (error as NodeJS.ErrnoException).syscall ? storageError(path, error) : error;
  }
  return path;
}
