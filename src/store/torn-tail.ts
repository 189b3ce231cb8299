// The one rule for the last line of an append-only ndjson file (results.ndjson, timeline.ndjson)
// that a kill -9 or a full disk left without its newline, applied before anything is appended.
import { closeSync, fstatSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';

/**
 * A partial last line must not stay: appending after it would glue the next line onto the fragment
 * and lose both. The file's own reader decides (`isWhole`): a whole line that only lacks its newline
 * gets it (the reader already counts it, and for a result its answer was paid for: sending it
 * again would pay twice); anything else is cut back to the last complete line. Only the tail is
 * read, backwards, never the whole file. Returns what it did, for tests and messages.
 */
export function repairTornTail(fd: number, isWhole: (line: string) => boolean): 'whole' | 'completed' | 'cut' {
  const size = fstatSync(fd).size;
  if (size === 0) return 'whole';
  const lineStart = lastLineStart(fd, size);
  if (lineStart === size) return 'whole';
  const tail = Buffer.alloc(size - lineStart);
  readSync(fd, tail, 0, tail.length, lineStart);
  if (isWhole(tail.toString('utf8'))) {
    // The fd is opened for appending ('a'/'a+'): the newline lands at the end whatever the position.
    writeSync(fd, '\n');
    return 'completed';
  }
  ftruncateSync(fd, lineStart);
  return 'cut';
}

/** The same, for a file named by its path (nothing to do when it does not exist yet). */
export function repairTornTailOf(path: string, isWhole: (line: string) => boolean): 'whole' | 'completed' | 'cut' {
  let fd: number;
  try {
    fd = openSync(path, 'a+');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'whole';
    throw error;
  }
  try {
    return repairTornTail(fd, isWhole);
  } finally {
    closeSync(fd);
  }
}

/** The offset just after the file's last newline (0 when it has none). */
function lastLineStart(fd: number, size: number): number {
  const block = Buffer.alloc(64 * 1024);
  for (let end = size; end > 0; ) {
    const start = Math.max(0, end - block.length);
    const read = readSync(fd, block, 0, end - start, start);
    const newline = block.subarray(0, read).lastIndexOf(0x0a);
    if (newline !== -1) return start + newline + 1;
    end = start;
  }
  return 0;
}
