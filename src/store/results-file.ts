// The one appender of results.ndjson, the run's source of truth: a line per finished request.
import { closeSync, fstatSync, fsyncSync, openSync, ftruncateSync, writeSync } from 'node:fs';
import type { StorageError } from '../domain/errors.js';
import type { Sample } from '../domain/sample.js';
import { isWholeResultLine } from './results-reader.js';
import { storageError } from './storage-error.js';
import { repairTornTail } from './torn-tail.js';

/** The batch buffer's size to start with, and the most kept between batches. */
const BATCH_BYTES = 64 * 1024;
const MAX_KEPT_BATCH_BYTES = 1024 * 1024;

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
  /**
   * The batch, as UTF-8 bytes: each line is encoded once, into this buffer, as it is appended. A
   * batch of strings joined and handed to write(2) as a string was copied twice more (the join,
   * then node's own encoding), which showed in a load test's profile and its garbage collections.
   */
  private batch = Buffer.allocUnsafe(BATCH_BYTES);
  private used = 0;
  private pending = 0;
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
    const line = JSON.stringify(sample);
    // A UTF-16 code unit takes at most 3 bytes in UTF-8 (a surrogate pair, 4 for 2); a long line
    // (a huge answer) is measured instead, so the buffer does not grow to three times its size.
    const room = (line.length <= BATCH_BYTES ? line.length * 3 : Buffer.byteLength(line)) + 1;
    if (this.used + room > this.batch.length) this.grow(room);
    this.used += this.batch.write(line, this.used, 'utf8');
    this.batch[this.used++] = 0x0a;
    this.pending += 1;
    if (written) this.callbacks.push(written);
    this.scheduled ??= setImmediate(() => this.flush());
  }

  /** Writes what is queued now, then runs the callbacks of what it wrote. */
  flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = null;
    if (this.pending === 0) return;
    const count = this.pending;
    const bytes = this.used;
    this.pending = 0;
    this.used = 0;
    try {
      writeAll(this.fd, this.batch, bytes);
      this.bytes += bytes;
      // A burst's large batch is not kept for the rest of the run.
      if (this.batch.length > MAX_KEPT_BATCH_BYTES) this.batch = Buffer.allocUnsafe(BATCH_BYTES);
    } catch (error) {
      this.fail(error);
      return;
    }
    this.lines += count;
    const callbacks = this.callbacks;
    this.callbacks = [];
    for (const callback of callbacks) callback();
  }

  /** Room for `room` more bytes after what the batch holds (a line larger than the buffer included). */
  private grow(room: number): void {
    const bigger = Buffer.allocUnsafe(Math.max(this.batch.length * 2, this.used + room));
    this.batch.copy(bigger, 0, 0, this.used);
    this.batch = bigger;
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

/** A write(2) may take part of a large buffer; the rest follows, so a line is never left half. */
function writeAll(fd: number, bytes: Buffer, length: number): void {
  for (let offset = 0; offset < length; ) offset += writeSync(fd, bytes, offset, length - offset);
}
