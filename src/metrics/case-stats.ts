// Pass counts per case (or thread turn) × model, streamed: the matrix of the HTML report and JUnit's testcases.
import type { Sample } from '../domain/sample.js';
import type { CaseCell, CaseSummary } from '../domain/summary.js';
import { fromUnits } from '../credits/ledger.js';
import { getOwn, setOwn } from './own-record.js';
import { isRequestError, requestCreditUnits } from './request-stats.js';

type Placed = Pick<Sample, 'case_id' | 'thread_id' | 'turn' | 'item_id'>;

/**
 * A thread's line without a turn is its `create` line: the conversation could not be opened (the
 * runner writes one only on failure). It is a request of its own, not a turn, so it gets its own row.
 */
export function isCreateLine(sample: Pick<Sample, 'thread_id' | 'turn'>): boolean {
  return sample.thread_id !== null && sample.turn === null;
}

/** Where a sample belongs in the matrix: `case:<id>`, `thread:<id>#<turn>` or `thread:<id>#create`. */
export function caseKeyOf(sample: Placed): string {
  if (sample.thread_id !== null) return `thread:${sample.thread_id}#${sample.turn ?? 'create'}`;
  return `case:${sample.case_id ?? sample.item_id}`;
}

/** How a person names the row: `refund-window`, `onboarding turn 2`, `onboarding: create conversation`. */
export function caseLabelOf(sample: Placed): string {
  if (sample.thread_id !== null) return isCreateLine(sample) ? `${sample.thread_id}: create conversation` : `${sample.thread_id} turn ${sample.turn}`;
  return sample.case_id ?? sample.item_id;
}

interface CaseEntry {
  summary: CaseSummary;
  /** The earliest start seen: rows come out in the order the run started them. */
  firstOffsetMs: number;
  /** model → credits in integer 1e-5 units, so a cell's sum never drifts. */
  creditUnits: Map<string, number>;
}

export interface CaseStatsAccumulator {
  add(sample: Sample): void;
  toCases(modelOrder: readonly string[]): CaseSummary[];
}

function emptyCell(): CaseCell {
  return { requests: 0, passed: 0, failed: 0, errors: 0, skipped: 0, credits_used: 0, latency_ms_sum: 0 };
}

function addToCell(cell: CaseCell, sample: Sample, creditUnits: Map<string, number>): void {
  if (sample.outcome === 'skipped') {
    cell.skipped++;
    return;
  }
  cell.requests++;
  if (sample.pass) cell.passed++;
  else if (isRequestError(sample)) cell.errors++;
  else cell.failed++;
  const units = (creditUnits.get(sample.model) ?? 0) + requestCreditUnits(sample);
  creditUnits.set(sample.model, units);
  cell.credits_used = fromUnits(units);
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
        creditUnits: new Map(),
      };
      entries.set(key, entry);
    }
    entry.firstOffsetMs = Math.min(entry.firstOffsetMs, sample.offset_ms);
    const models = entry.summary.models;
    const cell = getOwn(models, sample.model) ?? setOwn(models, sample.model, emptyCell());
    addToCell(cell, sample, entry.creditUnits);
  };

  const toCases = (modelOrder: readonly string[]): CaseSummary[] =>
    orderCases([...entries.values()]).map((entry) => ({
      ...entry.summary,
      models: Object.fromEntries(
        modelOrder.flatMap((m) => {
          const cell = getOwn(entry.summary.models, m);
          return cell ? [[m, cell] as const] : [];
        }),
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
