// One case (or thread turn) and its per-model counts: built from samples, or merged from spilled partial rows.
import type { Sample } from '../domain/sample.js';
import type { CaseCell, CaseSummary } from '../domain/summary.js';
import { fromUnits, sampleCreditUnits } from '../credits/units.js';
import { setOwn } from './own-record.js';
import { isRequestError } from './request-stats.js';
import { classOf } from '../stats/stability.js';

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

/** One case × model: credits in integer 1e-5 units, so a cell's sum never drifts. */
export interface CellTotals {
  requests: number;
  passed: number;
  failed: number;
  errors: number;
  skipped: number;
  creditUnits: number;
  latencyMsSum: number;
  /** `repeat_pass: k/n`: the cell passes when at least k requests passed; 0 = every one must. */
  required: number;
  /** Requests whose `pass` is null (no check judged them): outside pass rates. */
  notJudged: number;
  /** Successful answers (outcome ok) and their timings, for the paired per-question medians. */
  okCount: number;
  okLatencyMsSum: number;
  ttfcCount: number;
  ttfcMsSum: number;
}

export interface CaseEntry {
  key: string;
  label: string;
  case_id: string | null;
  thread_id: string | null;
  turn: number | null;
  /** The earliest start seen: rows come out in the order the run started them. */
  firstOffsetMs: number;
  /** model → totals (model names are user text: a Map). */
  cells: Map<string, CellTotals>;
}

export function emptyTotals(): CellTotals {
  return {
    requests: 0, passed: 0, failed: 0, errors: 0, skipped: 0, creditUnits: 0, latencyMsSum: 0, required: 0,
    notJudged: 0, okCount: 0, okLatencyMsSum: 0, ttfcCount: 0, ttfcMsSum: 0,
  };
}

export type CasePlacement = Omit<CaseEntry, 'cells'>;

export function placementOf(sample: Sample): CasePlacement {
  return {
    key: caseKeyOf(sample),
    label: caseLabelOf(sample),
    case_id: sample.case_id,
    thread_id: sample.thread_id,
    turn: sample.thread_id !== null ? sample.turn : null,
    firstOffsetMs: sample.offset_ms,
  };
}

export function newEntry(sample: Sample): CaseEntry {
  return { ...placementOf(sample), cells: new Map() };
}

/** A sample's contribution, as a cell of one request (or one skipped turn). */
export function totalsOfSample(sample: Sample): CellTotals {
  const t = emptyTotals();
  if (typeof sample.repeat_pass === 'number') t.required = sample.repeat_pass;
  if (sample.outcome === 'skipped') {
    t.skipped = 1;
    return t;
  }
  t.requests = 1;
  if (sample.pass) t.passed = 1;
  else if (isRequestError(sample)) t.errors = 1;
  // Not judged (a grader failed, `pass: null`) is no failure of the answer: the cell shows it as an
  // error, as JUnit does, and the per-question pass rates leave it out (neither passed nor failed).
  else if (sample.not_judged !== undefined || sample.pass === null) {
    t.errors = 1;
    t.notJudged = 1;
  }
  else t.failed = 1;
  t.creditUnits = sampleCreditUnits(sample);
  t.latencyMsSum = sample.latency_ms ?? 0;
  if (sample.outcome === 'ok') {
    if (typeof sample.latency_ms === 'number') {
      t.okCount = 1;
      t.okLatencyMsSum = sample.latency_ms;
    }
    if (typeof sample.ttfc_ms === 'number') {
      t.ttfcCount = 1;
      t.ttfcMsSum = sample.ttfc_ms;
    }
  }
  return t;
}

export function addTotals(entry: CaseEntry, model: string, add: CellTotals, offsetMs: number): void {
  entry.firstOffsetMs = Math.min(entry.firstOffsetMs, offsetMs);
  const cell = entry.cells.get(model);
  if (!cell) {
    entry.cells.set(model, { ...add });
    return;
  }
  cell.required = Math.max(cell.required, add.required);
  cell.requests += add.requests;
  cell.passed += add.passed;
  cell.failed += add.failed;
  cell.errors += add.errors;
  cell.skipped += add.skipped;
  cell.creditUnits += add.creditUnits;
  cell.latencyMsSum += add.latencyMsSum;
  cell.notJudged += add.notJudged;
  cell.okCount += add.okCount;
  cell.okLatencyMsSum += add.okLatencyMsSum;
  cell.ttfcCount += add.ttfcCount;
  cell.ttfcMsSum += add.ttfcMsSum;
}

export function toCaseCell(t: CellTotals): CaseCell {
  const stability = classOf(t);
  return {
    requests: t.requests, passed: t.passed, failed: t.failed, errors: t.errors, skipped: t.skipped,
    credits_used: fromUnits(t.creditUnits), latency_ms_sum: t.latencyMsSum,
    ...(t.required > 0 ? { repeat_pass: t.required } : {}),
    ...(t.notJudged > 0 ? { not_judged: t.notJudged } : {}),
    ...(stability !== null ? { stability } : {}),
  };
}

/** summary.json's form: cells of the report's models, in their order. */
export function toCaseSummary(entry: CaseEntry, modelOrder: readonly string[]): CaseSummary {
  const models: Record<string, CaseCell> = {};
  for (const model of modelOrder) {
    const cell = entry.cells.get(model);
    if (cell) setOwn(models, model, toCaseCell(cell));
  }
  return { key: entry.key, label: entry.label, case_id: entry.case_id, thread_id: entry.thread_id, turn: entry.turn, models };
}

/** One-time cases and threads in start order; a thread's turns together and in turn order. */
export function orderEntries(entries: CaseEntry[]): CaseEntry[] {
  const groupStart = new Map<string, number>();
  const groupOf = (e: CaseEntry): string => (e.thread_id !== null ? `thread:${e.thread_id}` : e.key);
  for (const e of entries) {
    const group = groupOf(e);
    groupStart.set(group, Math.min(groupStart.get(group) ?? Infinity, e.firstOffsetMs));
  }
  return entries.sort((a, b) => {
    const ga = groupOf(a);
    const gb = groupOf(b);
    if (ga !== gb) return groupStart.get(ga)! - groupStart.get(gb)! || ga.localeCompare(gb);
    return (a.turn ?? 0) - (b.turn ?? 0);
  });
}

/**
 * Which case is worse, for the bounded list summary.json keeps past its limit: more failed checks
 * and request errors first, then slower (mean latency over its requests), then by key so the
 * choice never depends on the order rows were read.
 */
export function compareWorst(a: CaseEntry, b: CaseEntry): number {
  const sa = severityOf(a);
  const sb = severityOf(b);
  return sb.problems - sa.problems || sb.meanLatencyMs - sa.meanLatencyMs || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

function severityOf(entry: CaseEntry): { problems: number; meanLatencyMs: number } {
  let problems = 0;
  let requests = 0;
  let latencyMs = 0;
  for (const cell of entry.cells.values()) {
    problems += cell.failed + cell.errors;
    requests += cell.requests;
    latencyMs += cell.latencyMsSum;
  }
  return { problems, meanLatencyMs: requests > 0 ? latencyMs / requests : 0 };
}
