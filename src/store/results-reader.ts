// The one reader of results.ndjson: streams it line by line in time linear in its size, validating and
// normalising each line. Resume, report, merge, compare, estimate and metrics all read through it.
import { openRunFile } from './run-file.js';
import { createReadStream, readSync } from 'node:fs';
import { join } from 'node:path';
import type { Sample } from '../domain/sample.js';
import { RUN_FILES } from './run-dir.js';

export interface ResultsReadStats {
  /** Non-empty lines seen. */
  lines: number;
  samples: number;
  /** A last line without its newline that is not a whole result: the run stopped mid-write (see isWholeResultLine). */
  torn_lines: number;
  /** Other lines that are not a result object (kept apart: they mean corruption, not interruption). */
  invalid_lines: number;
  /** The line number (from 1, blank lines counted) of the sample last yielded: where a caller's finding is. */
  line: number;
}

/** An async iterable of Samples; `stats` is complete once iteration has finished. */
export interface ResultsStream extends AsyncIterable<Sample> {
  readonly stats: ResultsReadStats;
}

/** The results of a run directory (or, with `fileName`, another file of it). */
export function readResults(runDir: string, fileName: string = RUN_FILES.results): ResultsStream {
  return readResultsFile(join(runDir, fileName));
}

export function readResultsFile(path: string): ResultsStream {
  const stats: ResultsReadStats = { lines: 0, samples: 0, torn_lines: 0, invalid_lines: 0, line: 0 };
  return { stats, [Symbol.asyncIterator]: () => iterateSamples(path, stats) };
}

async function* iterateSamples(path: string, stats: ResultsReadStats): AsyncGenerator<Sample> {
  let lineNumber = 0;
  for await (const { lines, complete } of readLineBatches(path)) {
    for (const line of lines) {
      lineNumber++;
      if (line.trim() === '') continue;
      stats.lines++;
      const sample = parseSample(line);
      if (sample) {
        stats.samples++;
        stats.line = lineNumber;
        yield sample;
      } else if (complete) {
        stats.invalid_lines++;
      } else {
        stats.torn_lines++;
      }
    }
  }
}

/** Lines one at a time (`complete` false for a last line without its newline). */
export async function* readLines(path: string): AsyncGenerator<{ line: string; complete: boolean }> {
  for await (const { lines, complete } of readLineBatches(path)) for (const line of lines) yield { line, complete };
}

/**
 * Splits the file on '\n' as bytes, chunk by chunk, and hands over each chunk's lines together (a
 * step of an async generator per line was a fifth of a report's reading). A line longer than a
 * chunk is kept as a list of pieces and joined once at its newline, so a 64 MiB answer costs one
 * copy, not one per chunk (a pending string searched from its start again at every chunk made two
 * such answers take 90 s). The last batch, when the file does not end with a newline, is that one
 * line with `complete` false.
 */
async function* readLineBatches(path: string): AsyncGenerator<{ lines: string[]; starts: number[]; complete: boolean }> {
  // A regular file only (run-file.ts): a FIFO results.ndjson would hold the reader forever.
  let fd: number;
  try {
    fd = openRunFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // no results yet: no lines
    throw error;
  }
  const stream = createReadStream(path, { fd, highWaterMark: 1 << 16 });
  let pieces: Buffer[] = [];
  // Byte offsets: of the chunk in the file, and of the line being read (a reader may come back to it).
  let chunkAt = 0;
  let lineAt = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const lines: string[] = [];
      const starts: number[] = [];
      let start = 0;
      for (let newline = chunk.indexOf(0x0a, start); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
        let bytes = chunk.subarray(start, newline);
        if (pieces.length > 0) {
          pieces.push(bytes);
          bytes = Buffer.concat(pieces);
          pieces = [];
        }
        lines.push(bytes.toString('utf8'));
        starts.push(lineAt);
        start = newline + 1;
        lineAt = chunkAt + start;
      }
      if (start < chunk.length) pieces.push(chunk.subarray(start));
      chunkAt += chunk.length;
      if (lines.length > 0) yield { lines, starts, complete: true };
    }
  } catch (error) {
    // A run that stopped before its first answer may not have created the file: no samples.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  } finally {
    stream.destroy();
  }
  if (pieces.length > 0) yield { lines: [Buffer.concat(pieces).toString('utf8')], starts: [lineAt], complete: false };
}

/**
 * Each whole result line with its byte offset in the file, for a reader that keeps offsets instead
 * of lines and reads a line again with `readSampleAt` (a regrade: memory follows the item ids, not
 * the answers). Torn and invalid lines are skipped, as `readResults` skips them.
 */
export async function* readSampleOffsets(path: string): AsyncGenerator<{ sample: Sample; offset: number }> {
  for await (const { lines, starts, complete } of readLineBatches(path)) {
    for (const [at, line] of lines.entries()) {
      if (!complete || line.trim() === '') continue;
      const sample = parseSample(line);
      if (sample) yield { sample, offset: starts[at]! };
    }
  }
}

/** The result line that starts at `offset` of the open file `fd` (an offset `readSampleOffsets` gave). */
export function readSampleAt(fd: number, offset: number): Sample {
  const pieces: Buffer[] = [];
  const chunk = Buffer.allocUnsafe(1 << 16);
  for (let at = offset; ; ) {
    const read = readSync(fd, chunk, 0, chunk.length, at);
    const newline = chunk.subarray(0, read).indexOf(0x0a);
    pieces.push(Buffer.from(chunk.subarray(0, newline === -1 ? read : newline)));
    if (newline !== -1 || read === 0) break;
    at += read;
  }
  const sample = parseSample(Buffer.concat(pieces).toString('utf8'));
  if (sample === null) throw new Error(`no result line at byte ${offset}: the file changed while it was read`);
  return sample;
}

/**
 * The one rule for a last line without its newline, shared by this reader and the appender
 * (results-file.ts): it is a result when it parses as a whole result object (an object's JSON ends
 * with its last `}`, so a cut one never parses), and torn otherwise. A whole one is kept and the
 * appender adds its newline: its answer was paid for, and sending it again would pay twice.
 */
export function isWholeResultLine(line: string): boolean {
  return parseSample(line) !== null;
}

function parseSample(line: string): Sample | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  if (typeof record.item_id !== 'string' || typeof record.model !== 'string' || typeof record.outcome !== 'string') return null;
  return normalizeSample(record as unknown as Sample);
}

/**
 * Fills fields an older or hand-written line may lack, so later maths never meets undefined. The
 * object was parsed for this call alone: it is completed in place (a copy per line showed in a
 * report's profile); fields it lacks are added after its own, as a spread would add them.
 */
function normalizeSample(sample: Sample): Sample {
  // A missing place would read as a thread (`undefined !== null`) everywhere a line is placed.
  sample.case_id = typeof sample.case_id === 'string' ? sample.case_id : null;
  sample.thread_id = typeof sample.thread_id === 'string' ? sample.thread_id : null;
  sample.turn = typeof sample.turn === 'number' ? sample.turn : null;
  sample.checks = Array.isArray(sample.checks) ? sample.checks : [];
  sample.text = typeof sample.text === 'string' ? sample.text : '';
  sample.chars = typeof sample.chars === 'number' ? sample.chars : 0;
  sample.chunks = typeof sample.chunks === 'number' ? sample.chunks : 0;
  sample.attempts = typeof sample.attempts === 'number' ? sample.attempts : 1;
  sample.offset_ms = typeof sample.offset_ms === 'number' ? sample.offset_ms : 0;
  sample.pass = sample.pass === true;
  sample.error = sample.error ?? null;
  sample.credits_used = typeof sample.credits_used === 'number' ? sample.credits_used : null;
  sample.credits_remaining = typeof sample.credits_remaining === 'number' ? sample.credits_remaining : null;
  sample.credits_unknown = sample.credits_unknown === true;
  return sample;
}
