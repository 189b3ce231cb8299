// compareRuns: two run directories in, one Comparison out (items matched, models judged, a verdict).
import { labelChanges } from './label-changes.js';
import { resolve } from 'node:path';
import { formatRate } from '../report/format.js';
import { digestRun, type RunDigest } from './collect.js';
import { matchItems, type ItemMatch } from './items.js';
import { compareModels } from './models.js';
import { assertRunDir } from '../store/run-dir.js';
import { headCoverage } from './head-plan.js';
import { assertSameSuite } from './same-suite.js';
import type { Comparison, CompareOptions, LabelChange, ModelChange, PassRateChange, RunRef } from './types.js';
import { comparePassRate, isFlakyChange } from './pass-rate.js';

export interface CompareRoles {
  /** How messages name each directory: `<base-dir>`, `--baseline`. */
  base: string;
  head: string;
}

export async function compareRuns(
  baseDir: string, headDir: string, options: CompareOptions, roles: CompareRoles = { base: '<base-dir>', head: '<head-dir>' },
): Promise<Comparison> {
  const baseRun = assertRunDir(baseDir, roles.base);
  const headRun = assertRunDir(headDir, roles.head);
  if (!options.allowDifferentSuites) assertSameSuite({ name: baseRun.suite.name, where: baseDir }, { name: headRun.suite.name, where: headDir }, roles);
  const [base, head] = await Promise.all([digestRun(baseDir, baseRun), digestRun(headDir, headRun)]);
  const items = matchItems(base.items, head.items);
  const coverage = await headCoverage(headRun);
  const notCompared = items.missing.filter((m) => coverage({ ...m, ids: m.item_ids }) === 'not-compared');
  items.missing = items.missing.filter((m) => !notCompared.includes(m));
  const models = compareModels(base, head, items.matched, options);
  const passRate = comparePassRate(base.items, head.items, items.matched, options.alpha, options.tolerance ?? 0);
  const reasons = failureReasons(items, models, options, passRate);
  const nothingJudged = judgedNothingIn(head);
  if (nothingJudged) reasons.push(`the head judged no answer (${head.run.status}): nothing to compare`);
  return {
    kind: 'kbbench-compare',
    version: 1,
    // No set of gates passes a head that judged nothing (interrupted before an answer, or every grader call failed).
    verdict: nothingJudged ? 'incomplete' : reasons.length === 0 ? 'pass' : 'fail',
    reasons,
    base: runRef(base),
    head: runRef(head),
    options: {
      latency_tolerance: options.latencyTolerance, credits_tolerance: options.creditsTolerance, alpha: options.alpha, fail_on: [...options.failOn],
      tolerance: options.tolerance ?? 0,
    },
    counts: {
      matched: items.matched.length, regressions: items.regressions.length, fixes: items.fixes.length,
      changed: items.changed.length, missing: items.missing.length, added: items.added.length, not_compared: notCompared.length,
    },
    regressions: items.regressions, fixes: items.fixes, changed: items.changed, missing: items.missing, added: items.added,
    not_compared: notCompared,
    models,
    pass_rate: passRate,
    flaky_regressions: items.regressions.filter(isFlakyChange).map((r) => r.item_id),
    warnings: warningsFor(base, head, models),
    ...labelChangesOf(baseDir, headDir),
  };
}

function labelChangesOf(baseDir: string, headDir: string): { label_changes?: LabelChange[] } {
  const changes = labelChanges(baseDir, headDir);
  return changes.length > 0 ? { label_changes: changes } : {};
}

/** A run with no judged answer: none recorded, or none a grader could judge. */
function judgedNothingIn(d: RunDigest): boolean {
  let judged = 0;
  for (const m of d.models.values()) judged += m.requests - (m.notJudged ?? 0);
  return judged <= 0;
}

function runRef(d: RunDigest): RunRef {
  return { dir: resolve(d.dir), run_id: d.run.run_id, suite: d.run.suite.name, status: d.run.status, started_at: d.run.started_at, samples: d.samples };
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
const signedPct = (x: number | null): string => (x === null ? '–' : `${x >= 0 ? '+' : '−'}${formatRate(Math.abs(x))}`);

const regressionReason = (n: number): string => `${plural(n, 'regression')} (pass → fail)`;
const REGRESSION_REASON = /^\d+ regressions? \(pass → fail\)$/;

/**
 * `--confirm N`'s findings folded in: a regression whose re-asks passed is flaky (listed, not a
 * failure); one whose re-asks all failed stays a regression and fails the `regressions` gate.
 */
export function withConfirmed(c: Comparison, confirm: NonNullable<Comparison['confirm']>, options: CompareOptions): Comparison {
  const flaky = [...new Set([...c.flaky_regressions, ...confirm.items.filter((i) => i.verdict === 'flaky').map((i) => i.item_id)])];
  const stable = c.regressions.filter((r) => !flaky.includes(r.item_id)).length;
  const reasons = c.reasons.filter((r) => !REGRESSION_REASON.test(r));
  if (options.failOn.includes('regressions') && stable > 0) reasons.unshift(regressionReason(stable));
  return { ...c, flaky_regressions: flaky, confirm, reasons, verdict: c.verdict === 'incomplete' ? 'incomplete' : reasons.length === 0 ? 'pass' : 'fail' };
}

/** One line per reason the comparison fails, in --fail-on's terms; none means pass. */
export function failureReasons(items: ItemMatch, models: Record<string, ModelChange>, options: CompareOptions, passRate: PassRateChange | null = null): string[] {
  const on = new Set(options.failOn);
  const reasons: string[] = [];
  // A stable item (its repeats agree, or one answer) fails on a single flip; a flaky one only through the pass rate.
  const stable = items.regressions.filter((r) => !isFlakyChange(r));
  if (on.has('regressions') && stable.length > 0) reasons.push(regressionReason(stable.length));
  if (on.has('regressions') && passRate?.verdict === 'regressed') {
    reasons.push(`pass rate ${signedPct(passRate.difference)} (95% CI ${signedPct(passRate.ci95[0])} to ${signedPct(passRate.ci95[1])}, p=${passRate.p_value.toPrecision(2)}, tolerance ${formatRate(passRate.tolerance)})`);
  }
  for (const [model, m] of Object.entries(models)) {
    if (on.has('latency')) {
      for (const key of ['ttfc_ms', 'latency_ms'] as const) {
        const t = m[key];
        if (t.regression) reasons.push(`${model}: ${key === 'ttfc_ms' ? 'TTFC' : 'latency'} median ${signedPct(t.change.p50)} (p=${t.test.p_adjusted?.toPrecision(2)}, tolerance ${formatRate(options.latencyTolerance)})`);
      }
    }
    const c = m.credits_per_request;
    if (on.has('credits') && c.regression) reasons.push(`${model}: credits per request ${signedPct(c.change)} (tolerance ${formatRate(options.creditsTolerance)})`);
  }
  if (on.has('changed') && items.changed.length > 0) reasons.push(`${plural(items.changed.length, 'changed answer')}`);
  if (on.has('missing') && items.missing.length > 0) reasons.push(`${plural(items.missing.length, 'missing item')} (planned by the head, or gone from its suite, with no result)`);
  return reasons;
}

function warningsFor(base: RunDigest, head: RunDigest, models: Record<string, ModelChange>): string[] {
  const warnings: string[] = [];
  for (const [role, d] of [['base', base], ['head', head]] as const) {
    if (d.run.status !== 'completed') warnings.push(`the ${role} run did not complete (${d.run.status}): its missing items are not a change of the service`);
  }
  if (base.run.suite.name !== head.run.suite.name) warnings.push(`compared with --allow-different-suites: suite "${base.run.suite.name}" against suite "${head.run.suite.name}"`);
  else if (base.run.suite.sha256 !== head.run.suite.sha256) warnings.push('the two runs used different suite files: added, missing and changed items may come from the suite');
  for (const [model, m] of Object.entries(models)) {
    if (!m.matched) warnings.push(`${model} ran in only one of the runs: nothing to compare`);
    else if (m.latency_ms.test.p_value === null) warnings.push(`${model}: too few answers on one side (${m.latency_ms.base.n} vs ${m.latency_ms.head.n}) to judge latency`);
  }
  return warnings;
}
