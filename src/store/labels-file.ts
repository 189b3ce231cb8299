// labels.csv of a run directory, written append-only: each label is one write() on a file opened
// O_APPEND, so two browser tabs (or two review processes) never lose a label or interleave lines,
// and the file's history stays whole (a reader takes the last row of each item × check).
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_FILES } from './run-dir.js';
import { MAX_SUMMARY_BYTES, readRunFile } from './run-file.js';
import { InputError } from '../domain/errors.js';
import { storageError } from './storage-error.js';

export function labelsPath(runDir: string): string {
  return join(runDir, RUN_FILES.labels);
}

/** The header is written by whoever creates the file (O_EXCL): a second writer finds it there. */
function ensureHeader(path: string, header: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw storageError(path, error);
  }
  try {
    writeSync(fd, header);
  } finally {
    closeSync(fd);
  }
}

/** Appends `rows` (whole CSV lines) in one write; the header first when the file is new. */
export function appendLabelRows(runDir: string, header: string, rows: string): void {
  const path = labelsPath(runDir);
  ensureHeader(path, header);
  const bytes = Buffer.from(rows, 'utf8');
  let fd: number;
  try {
    fd = openSync(path, 'a');
  } catch (error) {
    throw storageError(path, error);
  }
  try {
    const written = writeSync(fd, bytes);
    // A regular file takes a whole write; a short one (a full disk) must not leave half a row unsaid.
    if (written !== bytes.length) throw Object.assign(new Error('short write'), { code: 'ENOSPC' });
  } catch (error) {
    throw storageError(path, error);
  } finally {
    closeSync(fd);
  }
}

/** The file's text, or null when the run has no labels yet. */
export function readLabelsText(runDir: string): string | null {
  try {
    // Bounded and regular-file-only, as every run-directory reader (store/run-file.ts).
    return readRunFile(labelsPath(runDir), MAX_SUMMARY_BYTES);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    if (error instanceof InputError) throw error;
    throw storageError(labelsPath(runDir), error);
  }
}
