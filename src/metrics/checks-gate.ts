// The `checks` gate, counted as results stream by: failures outside any pass_rate threshold and not expected fail the run one by one.
import type { Sample } from '../domain/sample.js';
import type { GatesSummary } from '../domain/summary.js';

/** Sent requests that did not pass (failed checks or a request error) count in `failed` only when no pass_rate threshold covers them and they are not expected to fail. */
export type ChecksGateCounts = GatesSummary['checks'];

export interface ChecksGate {
  add(sample: Sample): void;
  counts(): ChecksGateCounts;
}

/** `covered` says whether a pass_rate threshold judges the sample (checks/thresholds-sinks.ts owns that). */
export function createChecksGate(covered: (sample: Sample) => boolean): ChecksGate {
  const c: ChecksGateCounts = { failed: 0, covered: 0, expected_failures: 0, unexpected_passes: 0 };
  return {
    add(sample) {
      // A skipped turn was never sent: the turn that stopped its conversation is the one judged.
      if (sample.outcome === 'skipped') return;
      if (sample.expected_failure !== undefined) {
        if (sample.pass) c.unexpected_passes++;
        else c.expected_failures++;
        return;
      }
      if (sample.pass) return;
      if (covered(sample)) c.covered++;
      else c.failed++;
    },
    counts: () => ({ ...c }),
  };
}
