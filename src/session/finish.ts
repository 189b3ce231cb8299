// After a run (or for `kbbench report`): every report rebuilt from results.ndjson, run.json's thresholds judged in the same pass.
import type { Gate } from '../metrics/gates.js';
import type { RunInfo } from '../domain/run.js';
import type { Summary } from '../domain/summary.js';
import type { Plan } from '../plan/types.js';
import { buildReports } from '../report/index.js';
import { unsentOf } from './unsent.js';

export interface FinishOptions {
  /** The run's plan, when known: a run that did not finish lists what it never sent (junit.xml). */
  plan?: Plan | null;
  /** `--fail-on` given now (report); else run.json's. */
  failOn?: readonly Gate[];
}

export async function finishReports(runDir: string, run: RunInfo, extras: FinishOptions = {}): Promise<Summary> {
  const unsent = extras.plan ? unsentOf(run, extras.plan, runDir) : null;
  const { summary } = await buildReports({
    runDir, run, thresholds: run.thresholds ?? {}, dropped: run.dropped ?? 0,
    ...(unsent ? { unsent } : {}),
    ...(extras.failOn ? { failOn: extras.failOn } : {}),
  });
  return summary;
}

