// --reuse-answers in the runner: a unit whose answers earlier runs hold is answered from them (nothing sent), its checks judged as a fresh answer's.
import type { StoredAnswer } from '../domain/answer-reuse.js';
import type { Sample } from '../domain/sample.js';
import type { PlanRequest, PlanUnit } from '../plan/types.js';
import { isoNow, systemClock } from './clock.js';
import { reusedSample } from './sample-builder.js';
import { withChecks, type CheckSubject, type SendDeps } from './send.js';

/** The answer as it was when asked: what its checks judge (a latency check its recorded latency). */
const subjectOf = (stored: Sample, prompt: string): CheckSubject => ({
  text: stored.text, ttfc_ms: stored.ttfc_ms, latency_ms: stored.latency_ms, credits_used: stored.credits_used, prompt,
});

async function answer(spec: PlanRequest, stored: StoredAnswer, deps: SendDeps): Promise<Sample> {
  const offsetMs = (deps.clock ?? systemClock).now() - deps.runStartMs;
  const sample = reusedSample(spec, { startedAt: isoNow(), offsetMs }, stored.line, stored.run_id);
  return withChecks(sample, spec, deps, subjectOf(stored.line, spec.prompt));
}

/** The stored answers for the whole unit, or null when any request of it must be asked (a thread is reused whole or asked whole). */
function takeFor(unit: PlanUnit, deps: SendDeps): StoredAnswer[] | null {
  const reuse = deps.reuse;
  if (reuse === undefined) return null;
  if (unit.kind === 'case') {
    const key = unit.request.question_key;
    const taken = key === undefined ? null : reuse.takeAnswer(key);
    return taken === null ? null : [taken];
  }
  // A resumed thread half done goes on in its conversation: asked, as it began.
  if (unit.conversation_id !== undefined || unit.replay?.length || unit.turns.length === 0) return null;
  const keys = unit.turns.map((t) => t.question_key);
  return keys.every((k): k is string => k !== undefined) ? reuse.takeThread(keys) : null;
}

/** True when the unit was answered from the store (its samples emitted); false: send it. */
export async function reuseUnit(unit: PlanUnit, deps: SendDeps, emit: (s: Sample) => void): Promise<boolean> {
  const taken = takeFor(unit, deps);
  if (taken === null) return false;
  const requests = unit.kind === 'case' ? [unit.request] : unit.turns;
  for (const [i, spec] of requests.entries()) emit(await answer(spec, taken[i]!, deps));
  return true;
}
