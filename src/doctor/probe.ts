// One probe: what interface.md (or public-facts.md) documents, and how to observe it.
import type { DoctorContext } from './context.js';
import type { ProbeOutcome } from './types.js';

export interface Probe {
  /** Documented behaviour, with where it is documented (or that it is not, and what kbbench expects). */
  documented: string;
  run(ctx: DoctorContext): Promise<ProbeOutcome>;
}
