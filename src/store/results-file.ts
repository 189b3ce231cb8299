// The one appender of results.ndjson, the run's source of truth: a line per finished request.
import { closeSync, fstatSync, fsyncSync, openSync, ftruncateSync, writeSync } from 'node:fs';
import type { StorageError } from '../domain/errors.js';
import type { Sample } from '../domain/sample.js';
import { isWholeResultLine } from './results-reader.js';
import { storageError } from './storage-error.js';
import { repairTornTail } from './torn-tail.js';

/**
 * Lines are appended in batches: every result that completes within one turn of the event loop is
 * written with a single write(2) at the end of that turn (setImmediate), and only then does it
 * count (the `written` callbacks: progress, the run's tally). So a line is in the file before its
 * result counts, a kill -9 loses at most the results of the turn in progress (which a resume sends
 * again: it never pays twice for a result it has), and a busy run makes one system call per turn
 * instead of one per line.
 */
export class ResultsFile {
  private readonly fd: number;
  private lines = 0;
  private pending: string[] = [];
  private callbacks: (() => void)[] = [];
  private scheduled: NodeJS.Immediate | null = null;
  private bytes = 0;
  /** The first write that failed (a full disk): nothing more is written after it. */
  failure: StorageError | null = null;
  /** Told once, when a write fails: the run stops (its requests would have nowhere to go). */
  onFailure: ((failure: StorageError) => void) | null = null;

  /** Lines are written as given: secrets are scrubbed from a result's values before (never from a line's JSON). */
  constructor(readonly path: string) {
    this.fd = openSync(path, 'a+');
    repairTornTail(this.fd, isWholeResultLine);
    this.bytes = fstatSync(this.fd).size;
  }

  /** Queues the line; `written` runs once it is in the file (never, once a write failed). */
  append(sample: Sample, written?: () => void): void {
    if (this.failure) return;
    this.pending.push(JSON.stringify(sample));
    if (written) this.callbacks.push(written);
    this.scheduled ??= setImmediate(() => this.flush());
  }

  /** Writes what is queued now, then runs the callbacks of what it wrote. */
  flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = null;
    if (this.pending.length === 0) return;
    const text = `${this.pending.join('\n')}\n`;
    const count = this.pending.length;
    this.pending = [];
    try {
      this.bytes += writeAll(this.fd, text);
    } catch (error) {
      this.fail(error);
      return;
    }
    this.lines += count;
    const callbacks = this.callbacks;
    this.callbacks = [];
    for (const callback of callbacks) callback();
  }

  get written(): number {
    return this.lines;
  }

  /**
   * A failed write (ENOSPC) may have left part of the batch: the file is cut back to its last whole
   * line, so a resume finds only whole results (their requests are sent again), and nothing counts.
   */
  private fail(error: unknown): void {
    this.callbacks = [];
    try {
      ftruncateSync(this.fd, this.bytes);
    } catch {
      // Cutting back failed too: the torn tail is dropped when the run is resumed (repairTornTail).
    }
    if (this.failure) return;
    this.failure = storageError(this.path, error);
    this.onFailure?.(this.failure);
  }

  close(): void {
    this.flush();
    try {
      fsyncSync(this.fd);
    } catch (error) {
      this.fail(error);
    }
    closeSync(this.fd);
  }
}

/**
 * A write(2) may take part of a large buffer; the rest follows, so a line is never left half. The
 * common case writes the string straight (no Buffer made first); only a short write converts.
 */
function writeAll(fd: number, text: string): number {
  const written = writeSync(fd, text);
  const bytes = Buffer.byteLength(text);
  if (written === bytes) return bytes;
  const rest = Buffer.from(text, 'utf8');
  for (let offset = written; offset < rest.length; ) offset += writeSync(fd, rest, offset);
  return bytes;
}
