// The `checks` gate, counted as results stream by: failures outside any pass_rate threshold and not
// expected fail the run one by one; an item under `repeat_pass: k/n` fails once, when fewer than k of
// its repeats passed (judged by the case table's one rule, case-table.ts cellStatus).
import type { Sample } from '../domain/sample.js';
import type { GatesSummary } from '../domain/summary.js';
import { poolKeyOf } from '../plan/item-id.js';
import { cellStatus } from './case-table.js';

/** Sent requests that did not pass (failed checks or a request error) count in `failed` only when no pass_rate threshold covers them and they are not expected to fail. */
export type ChecksGateCounts = GatesSummary['checks'];

export interface ChecksGate {
  add(sample: Sample): void;
  counts(): ChecksGateCounts;
}

interface RepeatCell {
  passed: number;
  failed: number;
  required: number;
  /** The last failed repeat, judged as the item's failure (coverage and expected failure are the item's). */
  failure: Sample | null;
}

/** `covered` says whether a pass_rate threshold judges the sample (thresholds-sinks.ts owns that). */
export function createChecksGate(covered: (sample: Sample) => boolean): ChecksGate {
  const c: ChecksGateCounts = { failed: 0, covered: 0, expected_failures: 0, unexpected_passes: 0 };
  // Items under repeat_pass only (a suite's few non-deterministic questions): keyed by item, repeats pooled.
  const repeatCells = new Map<string, RepeatCell>();
  const judge = (sample: Sample, pass: boolean, into: ChecksGateCounts): void => {
    if (sample.expected_failure !== undefined) {
      if (pass) into.unexpected_passes++;
      else into.expected_failures++;
      return;
    }
    if (pass) return;
    if (covered(sample)) into.covered++;
    else into.failed++;
  };
  return {
    add(sample) {
      // A skipped turn was never sent: the turn that stopped its conversation is the one judged.
      if (sample.outcome === 'skipped') return;
      // Not judged is neither passed nor failed: the `judged` gate speaks for it (summarizer.ts).
      if (sample.not_judged !== undefined) return;
      if (sample.repeat_pass !== undefined) {
        const key = `${sample.model}\u0000${poolKeyOf(sample.item_id)}`;
        const cell = repeatCells.get(key) ?? { passed: 0, failed: 0, required: sample.repeat_pass, failure: null };
        if (sample.pass) cell.passed++;
        else {
          cell.failed++;
          cell.failure = sample;
        }
        repeatCells.set(key, cell);
        return;
      }
      judge(sample, sample.pass, c);
    },
    counts: () => {
      const out = { ...c };
      for (const cell of repeatCells.values()) {
        const status = cellStatus({ failed: cell.failed, errors: 0, requests: cell.passed + cell.failed, skipped: 0, passed: cell.passed, required: cell.required });
        if (cell.failure !== null) judge(cell.failure, status === 'passed', out);
      }
      return out;
    },
  };
}
