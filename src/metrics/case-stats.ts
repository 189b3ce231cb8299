// Pass counts per case (or thread turn) × model, streamed: the matrix of the HTML report and JUnit's testcases.
import type { Sample } from '../domain/sample.js';
import type { CaseCell, CaseSummary } from '../domain/summary.js';
import { isRequestError, roundCredits } from './request-stats.js';

/** Where a sample belongs in the matrix: `case:<id>` or `thread:<id>#<turn>`. */
export function caseKeyOf(sample: Pick<Sample, 'case_id' | 'thread_id' | 'turn' | 'item_id'>): string {
  if (sample.thread_id !== null) return `thread:${sample.thread_id}#${sample.turn ?? 0}`;
  return `case:${sample.case_id ?? sample.item_id}`;
}

/** How a person names the row: `refund-window`, `onboarding turn 2`. */
export function caseLabelOf(sample: Pick<Sample, 'case_id' | 'thread_id' | 'turn' | 'item_id'>): string {
  if (sample.thread_id !== null) return `${sample.thread_id} turn ${sample.turn ?? 0}`;
  return sample.case_id ?? sample.item_id;
}

interface CaseEntry {
  summary: CaseSummary;
  /** The earliest start seen: rows come out in the order the run started them. */
  firstOffsetMs: number;
}

export interface CaseStatsAccumulator {
  add(sample: Sample): void;
  toCases(modelOrder: readonly string[]): CaseSummary[];
}

function emptyCell(): CaseCell {
  return { requests: 0, passed: 0, failed: 0, errors: 0, skipped: 0, credits_used: 0, latency_ms_sum: 0 };
}

function addToCell(cell: CaseCell, sample: Sample): void {
  if (sample.outcome === 'skipped') {
    cell.skipped++;
    return;
  }
  cell.requests++;
  if (sample.pass) cell.passed++;
  else if (isRequestError(sample)) cell.errors++;
  else cell.failed++;
  const checkCredits = sample.checks.reduce((sum, check) => sum + (check.credits_used ?? 0), 0);
  cell.credits_used = roundCredits(cell.credits_used + (sample.credits_used ?? 0) + checkCredits);
  cell.latency_ms_sum += sample.latency_ms ?? 0;
}

export function createCaseStats(): CaseStatsAccumulator {
  const entries = new Map<string, CaseEntry>();

  const add = (sample: Sample): void => {
    const key = caseKeyOf(sample);
    let entry = entries.get(key);
    if (!entry) {
      entry = {
        summary: {
          key,
          label: caseLabelOf(sample),
          case_id: sample.case_id,
          thread_id: sample.thread_id,
          turn: sample.thread_id !== null ? sample.turn : null,
          models: {},
        },
        firstOffsetMs: sample.offset_ms,
      };
      entries.set(key, entry);
    }
    entry.firstOffsetMs = Math.min(entry.firstOffsetMs, sample.offset_ms);
    const cell = (entry.summary.models[sample.model] ??= emptyCell());
    addToCell(cell, sample);
  };

  const toCases = (modelOrder: readonly string[]): CaseSummary[] =>
    orderCases([...entries.values()]).map((entry) => ({
      ...entry.summary,
      models: Object.fromEntries(
        modelOrder.filter((m) => entry.summary.models[m]).map((m) => [m, entry.summary.models[m]!]),
      ),
    }));

  return { add, toCases };
}

/** One-time cases and threads in start order; a thread's turns together and in turn order. */
function orderCases(entries: CaseEntry[]): CaseEntry[] {
  const groupStart = new Map<string, number>();
  const groupOf = (e: CaseEntry): string =>
    e.summary.thread_id !== null ? `thread:${e.summary.thread_id}` : e.summary.key;
  for (const e of entries) {
    const group = groupOf(e);
    groupStart.set(group, Math.min(groupStart.get(group) ?? Infinity, e.firstOffsetMs));
  }
  return entries.sort((a, b) => {
    const ga = groupOf(a);
    const gb = groupOf(b);
    if (ga !== gb) return groupStart.get(ga)! - groupStart.get(gb)! || ga.localeCompare(gb);
    return (a.summary.turn ?? 0) - (b.summary.turn ?? 0);
  });
}
