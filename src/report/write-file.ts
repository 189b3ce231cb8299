// Writes report files whole or not at all (temp file + rename), so a crash never leaves half a report.
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

function tempPathOf(path: string): string {
  // Random, not the pid: two report builds of one run must not share a temp file.
  return `${path}.tmp-${randomBytes(4).toString('hex')}`;
}

export async function writeFileAtomic(path: string, content: string): Promise<string> {
  const temp = tempPathOf(path);
  try {
    await writeFile(temp, content, 'utf8');
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return path;
}

/** Streams a readable (e.g. a CSV stringifier) into `path` through a temp file. */
export async function streamFileAtomic(path: string, source: Readable): Promise<string> {
  const temp = tempPathOf(path);
  try {
    await pipeline(source, createWriteStream(temp, { encoding: 'utf8' }));
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return path;
}
