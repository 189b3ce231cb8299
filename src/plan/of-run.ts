// The plan of a recorded run, rebuilt from its suite file and run.json's options (report's unsent items, compare's "planned by the head").
import { existsSync } from 'node:fs';
import type { RunInfo } from '../domain/run.js';
import type { Suite } from '../domain/suite.js';
import { loadSuite, loadSuites } from '../suite/index.js';
import { filterSuite, type SuiteFilter } from '../suite/filter.js';
import { buildPlan } from './build.js';
import type { Plan } from './types.js';
import { shardsSchedule } from '../load/index.js';

/**
 * Null when the suite file is gone or changed since the run (its sha256 differs): then the plan
 * cannot be known, and callers say less rather than guess.
 */
export async function planOfRun(run: RunInfo, keep?: SuiteFilter): Promise<Plan | null> {
  return (await suiteAndPlanOfRun(run, keep))?.plan ?? null;
}

/**
 * `keep`: the run's own selection (--filter, --only-failed), applied as the run applied it, so that
 * cases it never meant to send are outside its plan. `suite` stays whole (what the file holds).
 */
export async function suiteAndPlanOfRun(run: RunInfo, keep?: SuiteFilter): Promise<{ suite: Suite; plan: Plan } | null> {
  if (!existsSync(run.suite.path)) return null;
  try {
    // A run of several files (`run a.csv b.yaml`) names them all; a suite's includes are read again by loadSuite.
    const whole = run.suite.files ? await loadSuites(run.suite.files) : await loadSuite(run.suite.path);
    if (whole.sha256 !== run.suite.sha256) return null;
    const suite = keep ? filterSuite(whole, keep) : whole;
    const o = run.config;
    const plan = buildPlan(suite, {
      ...(o.plan.models?.length ? { models: o.plan.models } : {}),
      repeat: o.plan.repeat ?? 1,
      // An open loop's shard is a segment of its starts over the whole plan (runner/segment.ts), not part of the items.
      ...(o.placement.shard && !shardsSchedule(run.load.spec) ? { shard: o.placement.shard } : {}),
      defaults: o.request.requestDefaults ?? {},
    });
    return { suite: whole, plan };
  } catch {
    return null;
  }
}
