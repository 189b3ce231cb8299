// After a run (or for `kbbench report`): every report rebuilt from results.ndjson, run.json's thresholds judged in the same pass.
import { existsSync } from 'node:fs';
import type { Gate } from '../checks/gates.js';
import type { RunInfo } from '../domain/run.js';
import type { Summary } from '../domain/summary.js';
import { buildPlan } from '../plan/index.js';
import type { Plan } from '../plan/types.js';
import { buildReports } from '../report/index.js';
import { loadSuite } from '../suite/index.js';
import type { RunSessionOptions } from './options.js';
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

/**
 * The plan of a recorded run, rebuilt from its suite file and run.json's options, for `kbbench
 * report` of a run that did not finish; null when the suite is gone or changed (then the unsent
 * items cannot be named, and the report says nothing about them rather than guess).
 */
export async function planOfRun(run: RunInfo): Promise<Plan | null> {
  if (run.status === 'completed' || !existsSync(run.suite.path)) return null;
  try {
    const suite = await loadSuite(run.suite.path);
    if (suite.sha256 !== run.suite.sha256) return null;
    const o = run.options as Partial<RunSessionOptions>;
    return buildPlan(suite, {
      ...(o.models?.length ? { models: o.models } : {}),
      repeat: o.repeat ?? 1,
      ...(o.shard ? { shard: o.shard } : {}),
      defaults: o.requestDefaults ?? {},
    });
  } catch {
    return null;
  }
}
