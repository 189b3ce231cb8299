// A setup mistake seen in the first answers: a mistyped chat id (404 on every request) or a model
// the service does not know (400 on every request of it) is not a quality failure of the answers.
// When the first requests of the run, or of one model, all fail with the same 404/400/422 and none
// succeeded, the run stops early (aborted, verdict incomplete, exit 3) with a message naming it.
import type { Sample } from '../domain/sample.js';
import type { StopDecision } from './stop-conditions.js';

/** Identical refusals from the start before the run stops: one could be a fluke, three are a pattern. */
export const SETUP_FAILURES_TO_STOP = 3;
/** The refusals that say the thing asked for does not exist or is not accepted (401 is the preflight's, 429 passes). */
const SETUP_STATUSES = new Set([400, 404, 422]);

interface Streak {
  /** `status code`, the same for every failure of the streak; null once anything else was seen. */
  kind: string | null;
  count: number;
  message: string;
}

export interface SetupTarget {
  boardId: string;
  chatId: string;
}

export interface SetupCheck {
  observe(sample: Sample): StopDecision | null;
}

function kindOf(sample: Sample): string | null {
  if (sample.outcome !== 'http_error' || sample.status === null || !SETUP_STATUSES.has(sample.status)) return null;
  return `${sample.status} ${sample.error?.code ?? ''}`;
}

/**
 * Adds a result to a streak: still unbroken (the same refusal as all before it), or broken for good.
 * A skipped request (a thread's turns after its refused creation, a refused model's other requests)
 * follows from the refusal before it: it extends a streak, and never starts or breaks one.
 */
function extend(streak: Streak, sample: Sample, kind: string | null): void {
  if (streak.kind === null && streak.count > 0) return;
  if (sample.outcome === 'skipped') {
    if (streak.kind !== null) streak.count += 1;
    return;
  }
  const message = sample.error?.message ?? '';
  if (kind === null || (streak.count > 0 && streak.kind !== kind)) {
    streak.kind = null;
    streak.count = 1;
    return;
  }
  streak.kind = kind;
  streak.count += 1;
  streak.message = message;
}

export function createSetupCheck(target: SetupTarget): SetupCheck {
  const run: Streak = { kind: null, count: 0, message: '' };
  const models = new Map<string, Streak>();
  const modelsSeen = new Set<string>();
  let decided = false;
  return {
    observe(sample) {
      if (decided) return null;
      const kind = kindOf(sample);
      modelsSeen.add(sample.model);
      extend(run, sample, kind);
      const streak = models.get(sample.model) ?? { kind: null, count: 0, message: '' };
      models.set(sample.model, streak);
      extend(streak, sample, kind);
      if (run.kind !== null && run.count >= SETUP_FAILURES_TO_STOP && modelsSeen.size > 1) {
        decided = true;
        return {
          by: 'setup',
          detail: `every request so far (${run.count}, of ${modelsSeen.size} models) was refused the same way (${run.message}): check the target (board ${target.boardId}, chat ${target.chatId}) and the request options`,
        };
      }
      if (streak.kind !== null && streak.count >= SETUP_FAILURES_TO_STOP) {
        decided = true;
        return {
          by: 'setup',
          detail: `every request of model ${sample.model} so far (${streak.count}) was refused the same way (${streak.message}): check the model name (--models ${sample.model}) and the target (board ${target.boardId}, chat ${target.chatId})`,
        };
      }
      return null;
    },
  };
}
