// One stream of closed seconds, many outputs: timeline.ndjson, the console's live line and every
// `--output` read the same seconds in the same order. An output that throws is cut off from the
// stream (counted in its report), never the run.
import type { OutputReport } from '../domain/output.js';
import type { ClosedSecond, Output } from './output.js';

/** stop()'s deadline when the caller gives none: what the endpoints get to take the last seconds. */
export const OUTPUT_STOP_DEADLINE_MS = 5000;

export class OutputStream {
  private readonly broken = new Set<Output>();

  constructor(private readonly outputs: readonly Output[]) {}

  start(): void {
    for (const output of this.outputs) this.guard(output, () => output.start());
  }

  second(second: ClosedSecond): void {
    for (const output of this.outputs) if (!this.broken.has(output)) this.guard(output, () => output.second(second));
  }

  /** Every output's stop at once, each within the deadline; the reports of the network outputs. */
  async stop(deadlineMs = OUTPUT_STOP_DEADLINE_MS): Promise<OutputReport[]> {
    const reports = await Promise.all(this.outputs.map((output) => output.stop(deadlineMs).catch(() => null)));
    return reports.filter((r): r is OutputReport => r !== null);
  }

  private guard(output: Output, call: () => void): void {
    try {
      call();
    } catch {
      this.broken.add(output);
    }
  }
}
