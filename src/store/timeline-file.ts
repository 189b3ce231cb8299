// timeline.ndjson: the one appender (a line per second as the run goes) and reader of a run's time series.
import { appendFileSync, existsSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import type { TimelineLine } from '../domain/timeline.js';
import { readLines } from './results-reader.js';
import { RUN_FILES } from './run-dir.js';
import type { StorageError } from '../domain/errors.js';
import { storageError } from './storage-error.js';
import { repairTornTailOf } from './torn-tail.js';

export function timelinePath(runDir: string): string {
  return join(runDir, RUN_FILES.timeline);
}

export function hasTimeline(runDir: string): boolean {
  return existsSync(timelinePath(runDir));
}

/**
 * Appends lines as each second closes: one write per second, so an interrupted run keeps every
 * second it finished (a resume appends its own seconds after them).
 */
export class TimelineFile {
  /** The first write that failed (a full disk): nothing more is appended, and the run stops on it as on a result. */
  failure: StorageError | null = null;
  onFailure: ((failure: StorageError) => void) | null = null;

  private repaired = false;

  constructor(readonly path: string) {}

  append(lines: readonly TimelineLine[]): void {
    if (lines.length === 0 || this.failure !== null) return;
    let before = 0;
    try {
      // A resume appends after the killed run's seconds: a torn last second (ENOSPC, kill -9) is cut
      // first, by the rule results.ndjson follows, so it is not glued to the next one.
      if (!this.repaired) repairTornTailOf(this.path, (line) => parseLine(line) !== null);
      this.repaired = true;
      before = existsSync(this.path) ? statSync(this.path).size : 0;
      appendFileSync(this.path, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    } catch (error) {
      // Part of the batch may be in the file: cut back to the last whole second (the reader would
      // count a torn line unreadable; a resume would glue its first second onto it).
      try {
        if (this.repaired) truncateSync(this.path, before);
      } catch {
        // Cutting back failed too: the next append of a resume cuts it (repairTornTailOf).
      }
      this.failure = storageError(this.path, error);
      this.onFailure?.(this.failure);
    }
  }
}

/** The starts a run's timeline counts as dropped so far (a resume adds its own to them); null when it has no timeline. */
export async function droppedCountOf(runDir: string): Promise<number | null> {
  if (!hasTimeline(runDir)) return null;
  let count = 0;
  for await (const line of readTimeline(runDir)) count += line.dropped;
  return count;
}

/** The item ids of the dropped starts a timeline names (a replay's), in order: a resume does not send them again. */
export async function* droppedItemsOf(runDir: string): AsyncGenerator<string> {
  for await (const line of readTimeline(runDir)) yield* line.dropped_items ?? [];
}

export interface TimelineReadStats {
  lines: number;
  /** Lines that are not a timeline line (a torn last line of a killed run among them). */
  unreadable: number;
}

/** The lines of a run's timeline.ndjson in file order (none when there is no file). */
export function readTimeline(runDir: string, stats: TimelineReadStats = { lines: 0, unreadable: 0 }): AsyncIterable<TimelineLine> {
  return readTimelineFile(timelinePath(runDir), stats);
}

export async function* readTimelineFile(path: string, stats: TimelineReadStats = { lines: 0, unreadable: 0 }): AsyncGenerator<TimelineLine> {
  for await (const { line } of readLines(path)) {
    if (line.trim() === '') continue;
    const parsed = parseLine(line);
    if (parsed) {
      stats.lines += 1;
      yield parsed;
    } else stats.unreadable += 1;
  }
}

function parseLine(text: string): TimelineLine | null {
  try {
    const value = JSON.parse(text) as Partial<TimelineLine> | null;
    if (!value || typeof value !== 'object' || typeof value.t !== 'number' || typeof value.starts !== 'number') return null;
    return {
      ...(value as TimelineLine),
      errors: value.errors && typeof value.errors === 'object' ? value.errors : {},
      hdr: value.hdr && typeof value.hdr === 'object' ? value.hdr : {},
      target_rate: typeof value.target_rate === 'number' ? value.target_rate : null,
      loop_delay_p99_ms: typeof value.loop_delay_p99_ms === 'number' ? value.loop_delay_p99_ms : null,
    };
  } catch {
    return null;
  }
}
