// Pass counts per case (or thread turn) × model, streamed in bounded memory: summary.json's cases, the matrix, JUnit, cases.csv.
import { RUN_FILES } from '../store/run-dir.js';
import type { Sample } from '../domain/sample.js';
import type { CasesTruncated, CaseSummary } from '../domain/summary.js';
import { addTotals, caseKeyOf, compareWorst, newEntry, orderEntries, placementOf, toCaseSummary, totalsOfSample, type CaseEntry } from './case-entry.js';
import { createCaseSpill, CASE_SPILL_PARTITIONS, type CaseSpill } from './case-spill.js';
import { createFileCaseTable, memoryCaseTable, type CaseTable } from './case-table.js';
import { createQuestionStats, type QuestionStatsResult } from './question-stats.js';

export { caseKeyOf, caseLabelOf, isCreateLine } from './case-entry.js';

/** Up to this many distinct cases and turns, summary.json lists every one and they stay in memory. */
export const MAX_CASES_IN_SUMMARY = 10_000;
/** Past that, summary.json keeps this many: the worst (most failures and errors, then slowest). */
export const WORST_CASES_KEPT = 1_000;
/** The file that always holds every case × model row (report/cases-csv.ts writes it). */
export const CASES_CSV_FILE = RUN_FILES.casesCsv;

export interface CaseStatsOptions {
  /** Distinct case keys kept in memory (and listed whole in summary.json). */
  limit?: number;
  /** Cases summary.json keeps past the limit. */
  kept?: number;
  partitions?: number;
  /** Where the temporary partition files go (the run directory); the OS temp dir by default. */
  spillDir?: string;
}

export interface CaseStatsResult {
  /** summary.json's cases: all of them, or past the limit the worst `kept`, in run order either way. */
  cases: CaseSummary[];
  truncated: CasesTruncated | null;
  /** Every row, for cases.csv and junit.xml; dispose() it when written. */
  table: CaseTable;
  /** Per-question statistics per model and per pair of models. */
  questions: QuestionStatsResult;
}

export interface CaseStatsAccumulator {
  add(sample: Sample): void;
  /** `degrading`: case × model cells classed degrades_under_load (load-trend.ts), left out of the flaky lists. */
  finish(modelOrder: readonly string[], degrading?: ReadonlySet<string>): CaseStatsResult;
  /** Deletes the partition files when finish() will not be called (the read failed midway). */
  discard(): void;
}

export function createCaseStats(options: CaseStatsOptions = {}): CaseStatsAccumulator {
  const limit = options.limit ?? MAX_CASES_IN_SUMMARY;
  const kept = options.kept ?? WORST_CASES_KEPT;
  const entries = new Map<string, CaseEntry>();
  let spill: CaseSpill | null = null;

  /** The switch: every in-memory cell becomes a partial row, and memory is freed for good. */
  const startSpilling = (): CaseSpill => {
    const started = createCaseSpill(options.spillDir, options.partitions ?? CASE_SPILL_PARTITIONS);
    for (const entry of entries.values()) for (const [model, cell] of entry.cells) started.write(entry, model, cell);
    entries.clear();
    return started;
  };

  const add = (sample: Sample): void => {
    if (spill) {
      spill.write(placementOf(sample), sample.model, totalsOfSample(sample));
      return;
    }
    const key = caseKeyOf(sample);
    let entry = entries.get(key);
    if (!entry) {
      if (entries.size >= limit) {
        spill = startSpilling();
        spill.write(placementOf(sample), sample.model, totalsOfSample(sample));
        return;
      }
      entry = newEntry(sample);
      entries.set(key, entry);
    }
    addTotals(entry, sample.model, totalsOfSample(sample), sample.offset_ms);
  };

  const finish = (modelOrder: readonly string[], degrading?: ReadonlySet<string>): CaseStatsResult => {
    const questions = createQuestionStats(undefined, degrading);
    if (!spill) {
      const ordered = orderEntries([...entries.values()]);
      for (const entry of ordered) questions.add(entry);
      return {
        cases: ordered.map((e) => toCaseSummary(e, modelOrder)), truncated: null, table: memoryCaseTable(ordered, modelOrder),
        questions: questions.finish(modelOrder),
      };
    }
    const spilled = spill;
    try {
      const table = createFileCaseTable(spilled.dir, modelOrder);
      const worst = createWorstList(kept);
      for (const partition of spilled.partitions()) {
        for (const entry of partition.values()) {
          table.add(entry);
          worst.offer(entry);
          questions.add(entry);
        }
      }
      const finished = table.finish(() => spilled.dispose());
      const cases = orderEntries(worst.result()).map((e) => toCaseSummary(e, modelOrder));
      return {
        cases, truncated: { distinct: finished.distinct, kept: cases.length, file: CASES_CSV_FILE }, table: finished,
        questions: questions.finish(modelOrder),
      };
    } catch (error) {
      spilled.dispose();
      throw error;
    }
  };

  const discard = (): void => {
    spill?.dispose();
    spill = null;
    entries.clear();
  };

  return { add, finish, discard };
}

/** The `size` worst entries seen, in bounded memory: sorted and cut whenever it doubles. */
function createWorstList(size: number): { offer(entry: CaseEntry): void; result(): CaseEntry[] } {
  let list: CaseEntry[] = [];
  const trim = (): void => {
    list.sort(compareWorst);
    list = list.slice(0, size);
  };
  return {
    offer(entry) {
      list.push(entry);
      if (list.length >= 2 * size + 1) trim();
    },
    result() {
      trim();
      return list;
    },
  };
}
