// Concatenates shard runs' results.ndjson into one: every line once, item ids unique across shards.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../domain/errors.js';
import type { Sample } from '../domain/sample.js';
import { readResults } from '../store/results-reader.js';
import { RUN_FILES } from '../store/run-dir.js';

export interface ResultSource {
  dir: string;
  /** Added to every line's offset_ms: the shard's start after the earliest one's, so one timeline holds all. */
  shiftMs: number;
}

export interface SourceLines {
  lines: number;
  /** Lines that are not a JSON object: an interrupted run's torn last line, or damage. Left out. */
  unreadable: number;
}

/** Every readable line of a shard, through the one reader of results files (torn and damaged lines counted, left out). */
async function* resultLines(dir: string, counts: SourceLines): AsyncGenerator<Sample> {
  const results = readResults(dir);
  for await (const sample of results) {
    counts.lines += 1;
    yield sample;
  }
  counts.unreadable += results.stats.torn_lines + results.stats.invalid_lines;
}

/**
 * First pass, before anything is written: an item in two shards would be counted (and paid for)
 * twice in the merged run, so it is refused, naming both run directories.
 */
export async function checkUniqueItems(dirs: readonly string[]): Promise<SourceLines[]> {
  const owner = new Map<string, string>();
  const counts: SourceLines[] = [];
  for (const dir of dirs) {
    const count: SourceLines = { lines: 0, unreadable: 0 };
    for await (const line of resultLines(dir, count)) {
      const first = owner.get(line.item_id);
      if (first !== undefined) {
        const where = first === dir ? `twice in ${dir}` : `in both ${first} and ${dir}`;
        throw new InputError(`item ${line.item_id} is ${where}: these runs overlap (the same shard twice, or a shard and a full run)`, { field: 'run-dir' });
      }
      owner.set(line.item_id, dir);
    }
    counts.push(count);
  }
  return counts;
}

/** Second pass: every readable line, shard after shard, its offset shifted onto the merged timeline. */
export async function concatResults(sources: readonly ResultSource[], outDir: string): Promise<number> {
  const out = createWriteStream(join(outDir, RUN_FILES.results), { flags: 'wx' });
  let written = 0;
  try {
    for (const source of sources) {
      for await (const line of resultLines(source.dir, { lines: 0, unreadable: 0 })) {
        if (source.shiftMs !== 0) line.offset_ms = Math.round((line.offset_ms + source.shiftMs) * 1000) / 1000;
        if (!out.write(`${JSON.stringify(line)}\n`)) await once(out, 'drain');
        written += 1;
      }
    }
  } finally {
    out.end();
    await once(out, 'close');
  }
  return written;
}
