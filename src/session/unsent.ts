// The plan's requests that have no result line, streamed from the lazy plan and the resume bitmap (never a list): junit.xml's skipped items.
import type { RunInfo } from '../domain/run.js';
import { formatItemId } from '../plan/item-id.js';
import type { Plan, PlanRequest } from '../plan/types.js';
import type { UnsentItem } from '../report/types.js';
import { readResumeState, remainingUnits, type ResumeState } from '../store/resume.js';
import { isTimeBound } from '../load/index.js';

function itemOf(request: PlanRequest): UnsentItem {
  const label = request.thread_id !== null ? `${request.thread_id} turn ${request.turn}` : (request.case_id ?? formatItemId(request.id));
  return { item_id: formatItemId(request.id), label, model: request.model };
}

/**
 * What a run that did not finish (or whose results were cut) left unsent; null when the question
 * has no answer: only a closed loop sends its plan once; every other kind cycles the plan
 * for a time (arrivals, ramping workers, a sweep), so nothing of it is "left".
 */
export function unsentOf(run: RunInfo, plan: Plan, runDir: string): (() => AsyncIterable<UnsentItem>) | null {
  if (isTimeBound(run.load.spec)) return null;
  let state: Promise<ResumeState> | null = null;
  return async function* unsent() {
    state ??= readResumeState(runDir, plan);
    for (const unit of remainingUnits(plan, await state).units()) {
      if (unit.kind === 'case') yield itemOf(unit.request);
      else for (const turn of unit.turns) yield itemOf(turn);
    }
  };
}
