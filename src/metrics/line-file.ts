// Lines to and from temporary files, synchronously and in bounded memory: the case table's spill files.
import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/**
 * Characters buffered before a write: 64 partitions × 16 K stay ~1 M characters of live strings (at
 * 64 K they were 4 M, ~8 MB of heap held through the summarizer's pass); a write of 16 KB is still few.
 */
const WRITE_BUFFER_CHARS = 16 * 1024;
const READ_CHUNK_BYTES = 1024 * 1024;

export interface LineWriter {
  write(line: string): void;
  /** Flushes and closes; the file stays. */
  close(): void;
}

/**
 * Appends lines to a new file. Synchronous because the summarizer's add() is: its caller (a
 * report build after the run) has nothing else to do meanwhile.
 */
export function createLineWriter(path: string): LineWriter {
  const fd = openSync(path, 'wx');
  let buffer: string[] = [];
  let buffered = 0;
  let open = true;
  const flush = (): void => {
    if (buffered === 0) return;
    writeSync(fd, buffer.join(''));
    buffer = [];
    buffered = 0;
  };
  return {
    write(line: string): void {
      buffer.push(line, '\n');
      buffered += line.length + 1;
      if (buffered >= WRITE_BUFFER_CHARS) flush();
    },
    close(): void {
      if (!open) return;
      open = false;
      try {
        flush();
      } finally {
        closeSync(fd);
      }
    },
  };
}

/** Reads a file line by line, 1 MB at a time by default (a partition may be larger than a string should be). */
export function* readLinesSync(path: string, chunkBytes: number = READ_CHUNK_BYTES): Generator<string> {
  const fd = openSync(path, 'r');
  const decoder = new StringDecoder('utf8');
  // No bigger than the file: 64 partitions of 100 KB each took 64 MB of zeroed buffers in one synchronous step.
  const chunk = Buffer.allocUnsafe(Math.max(1, Math.min(chunkBytes, fstatSync(fd).size)));
  let rest = '';
  try {
    for (;;) {
      const bytes = readSync(fd, chunk, 0, chunk.length, null);
      if (bytes === 0) break;
      const text = rest + decoder.write(chunk.subarray(0, bytes));
      const lines = text.split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line !== '') yield line;
    }
    const last = rest + decoder.end();
    if (last !== '') yield last;
  } finally {
    closeSync(fd);
  }
}
