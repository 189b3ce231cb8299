// The plan's work items as the runner's units: a case is one request, a thread a sequence of turns.
import type { WorkItem } from '../plan/types.js';
import type { RunUnit } from './request-spec.js';

export function unitsFromPlan(items: readonly WorkItem[]): RunUnit[] {
  return items.map((item): RunUnit => {
    if (item.kind === 'case') {
      return {
        kind: 'case',
        request: {
          item_id: item.item_id, case_id: item.case_id, thread_id: null, turn: null,
          model: item.model, request_model: item.request_model, repeat: item.repeat,
          prompt: item.prompt, options: item.options, checks: item.checks,
        },
      };
    }
    return {
      kind: 'thread',
      thread: {
        thread_key: item.thread_key, thread_id: item.thread_id, ...(item.name !== undefined ? { name: item.name } : {}),
        model: item.model, repeat: item.repeat,
        turns: item.turns.map((t) => ({
          item_id: t.item_id, case_id: null, thread_id: item.thread_id, turn: t.turn,
          model: item.model, request_model: item.request_model, repeat: item.repeat,
          prompt: t.prompt, options: t.options, checks: t.checks,
        })),
      },
    };
  });
}
