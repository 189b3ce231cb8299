// The one reader of a run directory's files (run.json, summary.json, results.ndjson, timeline,
// histograms, cases.csv, the lock): each must be a regular file, of bounded size when read whole. A
// doctored directory (summary.json → /dev/zero, a FIFO run.json) ends in a clear error, never in
// gigabytes of memory or a read that waits forever. Suites have the same rule (suite/bounded-read.ts).
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { InputError } from '../domain/errors.js';

const MiB = 1024 * 1024;
/** run.json, the lock, a comparison: a few KiB, a label or a list of outputs at most. */
export const MAX_RUN_JSON_BYTES = 64 * MiB;
/** summary.json and histograms.json: 10,000 cases and their histograms stay far below it. */
export const MAX_SUMMARY_BYTES = 512 * MiB;

/**
 * Opens a file of a run directory for reading: without waiting (a FIFO opens at once and is then
 * refused), and only when it is a regular file (a link is followed to its target, which must be
 * one). The caller closes the descriptor (or gives it to a stream that does).
 */
export function openRunFile(path: string): number {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) {
      throw new InputError(`${basename(path)} is not a regular file (a FIFO, a device or a directory): a run directory holds kbbench's own files; replace it with the file`, { file: path });
    }
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** A whole file of a run directory as text, refused past `maxBytes` (from its size, before reading). */
export function readRunFile(path: string, maxBytes: number): string {
  const fd = openRunFile(path);
  try {
    const size = fstatSync(fd).size;
    if (size > maxBytes) throw new InputError(`${basename(path)} is larger than the limit of ${maxBytes / MiB} MiB (${Math.ceil(size / MiB)} MiB): not a file kbbench wrote`, { file: path });
    // Its size plus one byte: a file that grew past the limit meanwhile is refused too.
    const buffer = Buffer.allocUnsafe(Math.min(size, maxBytes) + 1);
    let total = 0;
    for (let n = 1; n > 0 && total < buffer.length; total += n) n = readSync(fd, buffer, total, buffer.length - total, null);
    if (total > maxBytes) throw new InputError(`${basename(path)} is larger than the limit of ${maxBytes / MiB} MiB: not a file kbbench wrote`, { file: path });
    return buffer.subarray(0, total).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
