// Reads a whole input file (a suite, a key file) with a byte limit: a suite that is a link to
// /dev/zero or /dev/urandom must end in a clear error, not in gigabytes of memory. Pipes and process
// substitution (`<(…)`, /dev/stdin) are read as they come; a regular file is refused from its size.
import { open } from 'node:fs/promises';

export const MiB = 1024 * 1024;

/** What passed `maxBytes`: the caller words the error (naming the file and the limit). */
export class TooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`larger than the limit of ${formatBytes(maxBytes)}`);
  }
}

/** A NUL byte where text was expected (a suite linked to /dev/zero, a binary file): refused as it arrives. */
export class NotTextError extends Error {
  constructor(readonly offset: number) {
    super(`not a text file: a NUL byte at byte ${offset}`);
  }
}

export function formatBytes(bytes: number): string {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

const CHUNK_BYTES = 64 * 1024;

/**
 * `text`: the file must be text, and a NUL byte ends the read where it is found, so a device or a
 * binary stream is refused at its first chunk instead of being held up to the limit.
 */
export async function readFileBounded(path: string, maxBytes: number, options: { text?: boolean } = {}): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const info = await handle.stat();
    if (info.isFile() && info.size > maxBytes) throw new TooLargeError(maxBytes);
    // A regular file is read in one piece of its size (plus one byte, to see it did not grow past
    // the limit meanwhile); a pipe or a device in chunks, counted as they come.
    const first = info.isFile() ? info.size + 1 : CHUNK_BYTES;
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(chunks.length === 0 ? first : CHUNK_BYTES, maxBytes + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      if (options.text) {
        const nul = chunk.subarray(0, bytesRead).indexOf(0);
        if (nul !== -1) throw new NotTextError(total + nul);
      }
      total += bytesRead;
      if (total > maxBytes) throw new TooLargeError(maxBytes);
      chunks.push(bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead));
    }
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
  } finally {
    await handle.close();
  }
}
