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
  /**
   * The counts of the partitions `gated` keeps (all by default); failures in the others are
   * `not_gated`: reported, not failed (a sweep's rates above slo_max_rate).
   */
  counts(gated?: (partition: number) => boolean): ChecksGateCounts;
}

interface RepeatCell {
  passed: number;
  failed: number;
  required: number;
  /** The last failed repeat, judged as the item's failure (coverage and expected failure are the item's). */
  failure: Sample | null;
}

const zero = (): ChecksGateCounts => ({ failed: 0, covered: 0, expected_failures: 0, unexpected_passes: 0 });

/**
 * `covered` says whether a pass_rate threshold judges the sample (thresholds-sinks.ts owns that);
 * `partition` which part of the run it belongs to (a sweep's rate; one part by default).
 */
export function createChecksGate(covered: (sample: Sample) => boolean, partition: (sample: Sample) => number = () => 0): ChecksGate {
  const parts = new Map<number, ChecksGateCounts>();
  const partOf = (sample: Sample): ChecksGateCounts => {
    const key = partition(sample);
    let part = parts.get(key);
    if (part === undefined) {
      part = zero();
      parts.set(key, part);
    }
    return part;
  };
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
      judge(sample, sample.pass, partOf(sample));
    },
    counts: (gated = () => true) => {
      const byPart = new Map([...parts].map(([key, part]) => [key, { ...part }]));
      for (const cell of repeatCells.values()) {
        const status = cellStatus({ failed: cell.failed, errors: 0, requests: cell.passed + cell.failed, skipped: 0, passed: cell.passed, required: cell.required });
        if (cell.failure === null) continue;
        const key = partition(cell.failure);
        const part = byPart.get(key) ?? zero();
        byPart.set(key, part);
        judge(cell.failure, status === 'passed', part);
      }
      const out = zero();
      let notGated = 0;
      for (const [key, part] of byPart) {
        if (!gated(key)) {
          notGated += part.failed;
          continue;
        }
        out.failed += part.failed;
        out.covered += part.covered;
        out.expected_failures += part.expected_failures;
        out.unexpected_passes += part.unexpected_passes;
      }
      return notGated > 0 ? { ...out, not_gated: notGated } : out;
    },
  };
}
