// The ledger's reconciliation over a run's answers: sorted by the balance each reported, every step
// down should be the credits_used of the answer that made it (exact 1e-5 units). A step that is not
// is spend from outside the run (another client on the account) or a misreport. Memory: the sort
// is an external merge sort, so a million answers hold one run of BALANCE_RUN_ENTRIES in memory and
// the rest in sorted run files on disk (the run directory), merged at the end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReconciliationFindings, ReconciliationGap } from '../domain/credits.js';
import { createLineWriter, readLinesSync } from '../metrics/line-file.js';
import { fromUnits, toUnits } from './units.js';

export type { ReconciliationFindings, ReconciliationGap } from '../domain/credits.js';

export const MAX_GAPS = 50;

/** Answers sorted in memory before they go to disk as one sorted run (a few MB of heap). */
export const BALANCE_RUN_ENTRIES = 20_000;
/** Each run file is read back this much at a time while merging. */
const RUN_READ_BYTES = 16 * 1024;

export interface BalanceStepsOptions {
  /** Where the sorted run files go (a hidden directory inside it, removed when done); the OS temp dir by default. */
  spillDir?: string;
  /** Answers per sorted run; BALANCE_RUN_ENTRIES by default. */
  runEntries?: number;
}

/** One answer's balance: remaining and used in 1e-5 units, and its arrival order (ties keep it, as a stable sort). */
type Step = [remaining: number, used: number, seq: number, item: string];

/** Highest balance first; equal balances, the cheaper answer first; then arrival order. */
const before = (a: Step, b: Step): number => b[0] - a[0] || a[1] - b[1] || a[2] - b[2];

/** Two numbers and an id per answer that reports a balance, sorted externally: memory is one run, not the run's answers. */
export class BalanceSteps {
  private chunk: Step[] = [];
  private readonly runs: string[] = [];
  private dir: string | null = null;
  private seq = 0;
  private checkUnits = 0;
  private readonly runEntries: number;

  constructor(private readonly options: BalanceStepsOptions = {}) {
    this.runEntries = options.runEntries ?? BALANCE_RUN_ENTRIES;
  }

  add(item: string, creditsUsed: number | null, creditsRemaining: number | null, checkUnits = 0): void {
    this.checkUnits += checkUnits;
    if (creditsUsed === null || creditsRemaining === null) return;
    this.chunk.push([toUnits(creditsRemaining), toUnits(creditsUsed), this.seq++, item]);
    if (this.chunk.length >= this.runEntries) this.spill();
  }

  /** The chunk, sorted, to a run file of its own. */
  private spill(): void {
    this.dir ??= mkdtempSync(join(this.options.spillDir ?? tmpdir(), '.kbbench-balances-'));
    const path = join(this.dir, `run-${this.runs.length}.ndjson`);
    const writer = createLineWriter(path);
    try {
      for (const step of this.chunk.sort(before)) writer.write(JSON.stringify(step));
    } finally {
      writer.close();
    }
    this.runs.push(path);
    this.chunk = [];
  }

  /** Removes the run files (reconcile() does it itself; this is for a summary that is not finished). */
  dispose(): void {
    if (this.dir !== null) rmSync(this.dir, { recursive: true, force: true });
    this.dir = null;
    this.runs.length = 0;
    this.chunk = [];
  }

  reconcile(): ReconciliationFindings {
    try {
      return this.walk(this.sorted());
    } finally {
      this.dispose();
    }
  }

  /** Every step in balance order: a k-way merge of the run files and the chunk still in memory. */
  private *sorted(): Generator<Step> {
    const sources: Iterator<Step>[] = this.runs.map((path) => parsed(readLinesSync(path, RUN_READ_BYTES)));
    sources.push(this.chunk.sort(before)[Symbol.iterator]());
    const heads: (Step | undefined)[] = sources.map((s) => s.next().value as Step | undefined);
    for (;;) {
      let best = -1;
      for (let i = 0; i < heads.length; i += 1) {
        const head = heads[i];
        if (head !== undefined && (best < 0 || before(head, heads[best]!) < 0)) best = i;
      }
      if (best < 0) return;
      yield heads[best]!;
      heads[best] = sources[best]!.next().value as Step | undefined;
    }
  }

  private walk(steps: Iterable<Step>): ReconciliationFindings {
    // The largest gaps, by size, in the order they were found among equals (a stable sort's slice).
    const gaps: { units: number; gap: ReconciliationGap }[] = [];
    let gapUnits = 0;
    let count = 0;
    let answers = 0;
    let first: Step | null = null;
    let hi: Step | null = null;
    for (const lo of steps) {
      answers += 1;
      if (hi === null) {
        first = lo;
        hi = lo;
        continue;
      }
      const amount = hi[0] - lo[0] - lo[1];
      if (amount !== 0) {
        gapUnits += amount;
        count += 1;
        keepLargest(gaps, Math.abs(amount), () => ({
          after_item: hi![3], before_item: lo[3], from_remaining: fromUnits(hi![0]), to_remaining: fromUnits(lo[0]),
          expected: fromUnits(lo[1]), amount: fromUnits(amount),
        }));
      }
      hi = lo;
    }
    return {
      answers,
      start_remaining: first === null ? null : fromUnits(first[0] + first[1]),
      end_remaining: hi === null ? null : fromUnits(hi[0]),
      unexplained: fromUnits(Math.max(0, gapUnits - this.checkUnits)),
      check_credits: fromUnits(this.checkUnits),
      gaps: gaps.map((g) => g.gap),
      gaps_left_out: Math.max(0, count - MAX_GAPS),
    };
  }
}

function* parsed(lines: Iterable<string>): Generator<Step> {
  for (const line of lines) yield JSON.parse(line) as Step;
}

/** Inserts after every gap at least as large, keeping MAX_GAPS: what a stable sort by size, then a slice, keeps. */
function keepLargest(gaps: { units: number; gap: ReconciliationGap }[], units: number, make: () => ReconciliationGap): void {
  let at = gaps.length;
  while (at > 0 && gaps[at - 1]!.units < units) at -= 1;
  if (at >= MAX_GAPS) return;
  gaps.splice(at, 0, { units, gap: make() });
  if (gaps.length > MAX_GAPS) gaps.pop();
}
