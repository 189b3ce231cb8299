// A traffic log run with no suite file (`kbbench run --traffic LOG`): the log is the suite. Its
// records bring their own prompts, conversations, models and checks, so the suite is empty but for
// its name and identity (the log's file and sha256, which --resume checks as a suite's).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import type { Suite } from '../../../domain/suite.js';

/** The suite a log stands for: named after the file, no target (flags name it), no cases of its own. */
export async function logSuite(file: string): Promise<Suite> {
  const path = resolve(file);
  // Hashed as a stream: a log of millions of records is never held whole.
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  const sha256 = hash.digest('hex');
  return {
    name: basename(path, extname(path)), path, sha256, target: {}, models: [], defaults: {},
    cases: [], threads: [], thresholds: {}, warnings: [],
  };
}
