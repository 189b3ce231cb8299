// `run --baseline DIR --confirm N`: re-asks each stable pass → fail item N more times before it fails the run.
import { join } from 'node:path';
import type { Comparison, ConfirmFinding } from '../compare/types.js';
import { itemKeyOf } from '../compare/collect.js';
import { readResults } from '../store/results-reader.js';
import { withSections, type RunConfig } from '../config/run-config.js';
import { runSession, type SessionHooks } from '../session/run-session.js';
import { askedConcurrency, closedLoad } from '../config/load-section.js';

/** Where the re-asks' own run directory goes, inside the head run's. */
export const CONFIRM_DIR = 'confirm';

/**
 * Why re-ask: with one answer per question a single flip cannot tell a broken answer from a
 * sampling wobble. N more answers can: if every re-ask fails too the regression is confirmed and
 * fails the run; if any passes, the item is flaky (reported, not a failure; the pass-rate gate
 * still judges the run as a whole). Flaky items already known from repeats are not re-asked.
 * The re-asks are a closed-loop run of only those cases and threads, on only those models.
 */
export async function confirmFlips(options: RunConfig, headDir: string, comparison: Comparison, repeats: number, hooks: SessionHooks): Promise<ConfirmFinding[] | null> {
  const flaky = new Set(comparison.flaky_regressions);
  const items = comparison.regressions.filter((r) => !flaky.has(r.item_id));
  if (items.length === 0) return null;
  const ids = [...new Set(items.map((r) => r.case_id ?? r.thread_id).filter((id): id is string => id !== null))];
  const models = [...new Set(items.map((r) => r.model))];
  const outDir = join(headDir, CONFIRM_DIR);
  // Sections replaced whole: the flips' items (their ids are within the run's own selection), the
  // run's placement dropped, no gates, and a closed loop, whatever load the run was.
  const { suitePath, suitePaths, suiteIsLog, seed } = options.plan;
  const reask = withSections(options, {
    plan: { suitePath, ...(suitePaths ? { suitePaths } : {}), ...(suiteIsLog ? { suiteIsLog } : {}), ...(seed !== undefined ? { seed } : {}), repeat: repeats, models, filter: ids },
    placement: options.placement.workers === undefined ? {} : { workers: options.placement.workers },
    gates: { thresholdFlags: [], failOn: [] },
    outputs: { ...options.outputs, outDir },
    load: closedLoad(askedConcurrency(options.load)),
  });
  await runSession(reask, hooks);
  const tally = new Map<string, { runs: number; passed: number }>();
  for await (const s of readResults(outDir)) {
    if (s.warmup === true || s.outcome === 'skipped') continue;
    const key = itemKeyOf(s.item_id);
    const t = tally.get(key) ?? { runs: 0, passed: 0 };
    tally.set(key, t);
    t.runs++;
    if (s.pass) t.passed++;
  }
  return items.map((r) => {
    const t = tally.get(r.item_id) ?? { runs: 0, passed: 0 };
    // Nothing answered (the re-asks could not be sent): the flip stands, as without --confirm.
    const verdict = t.runs === 0 || t.passed === 0 ? 'confirmed' : 'flaky';
    return { item_id: r.item_id, reasks: t.runs, passed: t.passed, verdict };
  });
}
