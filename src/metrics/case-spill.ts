// Past the in-memory limit, per-case rows go to a few partition files by a hash of the case key, aggregated one at a time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addTotals, type CaseEntry, type CasePlacement, type CellTotals } from './case-entry.js';
import { createLineWriter, readLinesSync, type LineWriter } from './line-file.js';

/**
 * 64 partitions: a million distinct cases aggregate ~16,000 at a time, and the writers' buffers
 * (64 KB each) stay a few MB.
 */
export const CASE_SPILL_PARTITIONS = 64;

/** A partial row: one case × model's totals so far (one sample's, or an in-memory cell's at the switch). */
type SpillRow = [
  key: string, label: string, caseId: string | null, threadId: string | null, turn: number | null, model: string,
  firstOffsetMs: number, requests: number, passed: number, failed: number, errors: number, skipped: number,
  creditUnits: number, latencyMsSum: number, required: number,
  notJudged: number, okCount: number, okLatencyMsSum: number, ttfcCount: number, ttfcMsSum: number,
];

export interface CaseSpill {
  /** The temporary directory (inside the run directory when one is given). */
  readonly dir: string;
  write(entry: CasePlacement, model: string, totals: CellTotals): void;
  /** Closes the writers and yields each partition's cases, aggregated, deleting its file once read. */
  partitions(): Generator<Map<string, CaseEntry>>;
  /** Removes every temporary file. */
  dispose(): void;
}

/** FNV-1a over UTF-16 code units: fast, and spreads keys such as `case:q-000123` evenly. */
export function partitionOf(key: string, partitions: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % partitions;
}

export function createCaseSpill(parentDir: string | undefined, partitions: number = CASE_SPILL_PARTITIONS): CaseSpill {
  const dir = mkdtempSync(join(parentDir ?? tmpdir(), '.kbbench-cases-'));
  const pathOf = (i: number): string => join(dir, `partition-${i}.ndjson`);
  const writers: Array<LineWriter | null> = Array.from({ length: partitions }, () => null);

  const write = (entry: CasePlacement, model: string, t: CellTotals): void => {
    const i = partitionOf(entry.key, partitions);
    const writer = writers[i] ?? (writers[i] = createLineWriter(pathOf(i)));
    const row: SpillRow = [
      entry.key, entry.label, entry.case_id, entry.thread_id, entry.turn, model, entry.firstOffsetMs,
      t.requests, t.passed, t.failed, t.errors, t.skipped, t.creditUnits, t.latencyMsSum, t.required,
      t.notJudged, t.okCount, t.okLatencyMsSum, t.ttfcCount, t.ttfcMsSum,
    ];
    writer.write(JSON.stringify(row));
  };

  function* partitionsOf(): Generator<Map<string, CaseEntry>> {
    for (const writer of writers) writer?.close();
    for (let i = 0; i < partitions; i++) {
      if (writers[i] === null) continue;
      const entries = new Map<string, CaseEntry>();
      for (const line of readLinesSync(pathOf(i))) mergeRow(entries, JSON.parse(line) as SpillRow);
      rmSync(pathOf(i), { force: true });
      yield entries;
    }
  }

  const dispose = (): void => {
    for (const writer of writers) writer?.close();
    rmSync(dir, { recursive: true, force: true });
  };

  return { dir, write, partitions: partitionsOf, dispose };
}

function mergeRow(entries: Map<string, CaseEntry>, row: SpillRow): void {
  const [key, label, caseId, threadId, turn, model, firstOffsetMs, requests, passed, failed, errors, skipped, creditUnits, latencyMsSum, required = 0,
    notJudged = 0, okCount = 0, okLatencyMsSum = 0, ttfcCount = 0, ttfcMsSum = 0] = row;
  let entry = entries.get(key);
  if (!entry) {
    entry = { key, label, case_id: caseId, thread_id: threadId, turn, firstOffsetMs, cells: new Map() };
    entries.set(key, entry);
  }
  addTotals(entry, model, { requests, passed, failed, errors, skipped, creditUnits, latencyMsSum, required, notJudged, okCount, okLatencyMsSum, ttfcCount, ttfcMsSum }, firstOffsetMs);
}
