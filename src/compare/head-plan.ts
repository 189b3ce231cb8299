// Which base items the head run meant to send: a base item the head has no result for is missing (a
// failure) when the head planned it or its suite dropped it, and not compared when the head's plan
// never covered it (a --models subset, another shard, a case --filter or --only-failed left out).
import type { RunInfo } from '../domain/run.js';
import { parseItemId, threadKeyOf } from '../plan/item-id.js';
import { suiteAndPlanOfRun } from '../plan/of-run.js';
import type { ItemDigest } from './collect.js';
import { recordedSelection } from '../store/run-selection.js';

export type HeadCoverage = 'missing' | 'not-compared';

export type CoverageOf = (item: Pick<ItemDigest, 'case_id' | 'thread_id' | 'model'> & { ids: Iterable<string> }) => HeadCoverage;

export async function headCoverage(head: RunInfo): Promise<CoverageOf> {
  const selection = await recordedSelection(head);
  const recorded = selection === null ? null : await suiteAndPlanOfRun(head, selection);
  if (recorded === null) {
    // The head's suite file is gone or changed, or its selection unknown: judge by what run.json
    // says it ran, and a selected run by nothing (its missing items cannot be told from unselected ones).
    const models = new Set(head.plan.models);
    const partial = head.config.placement.shard !== undefined || selection !== undefined;
    return (item) => (models.has(item.model) && !partial ? 'missing' : 'not-compared');
  }
  const { suite, plan } = recorded;
  // A case the head's selection left out is not in its plan: not compared, as a --models subset.
  const caseIds = new Set<string>();
  for (const c of suite.cases) caseIds.add(c.id);
  const threadIds = new Set(suite.threads.map((t) => t.id));
  return (item) => {
    const inSuite = item.case_id !== null ? caseIds.has(item.case_id) : item.thread_id !== null && threadIds.has(item.thread_id);
    if (!inSuite) return 'missing';
    for (const text of item.ids) {
      const id = parseItemId(text);
      const key = id && (id.kind === 'case' ? id : threadKeyOf(id));
      if (key && plan.indexOf({ ...key, cycle: 1 }) !== null) return 'missing';
    }
    return 'not-compared';
  };
}
