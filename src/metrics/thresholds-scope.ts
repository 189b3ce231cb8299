// Which samples a threshold's tag scope selects, and one canonical key per scope so equal scopes share a sink.
import type { Sample } from '../domain/sample.js';
import type { ThresholdTag } from './threshold-grammar.js';

/** The fields of a result line a scope can name. */
export type ScopedSample = Pick<Sample, 'model' | 'case_id' | 'thread_id' | 'turn' | 'endpoint' | 'method' | 'streaming' | 'outcome' | 'tags'>;

const TAG_VALUE: Record<Exclude<ThresholdTag, 'tag'>, (s: ScopedSample) => string | null> = {
  model: (s) => s.model,
  case: (s) => s.case_id,
  thread: (s) => s.thread_id,
  turn: (s) => (s.turn === null ? null : String(s.turn)),
  endpoint: (s) => s.endpoint,
  method: (s) => s.method,
  streaming: (s) => String(s.streaming),
  outcome: (s) => s.outcome,
};

/**
 * Whether a sample carries every tag value of the scope. Skipped turns match too: the accumulator
 * counts them apart, and the readout leaves them out unless the scope names an outcome.
 */
export function matchesTags(sample: ScopedSample, scope: Readonly<Record<string, string>>): boolean {
  for (const [tag, value] of Object.entries(scope)) {
    // `{tag:billing}` names one of the suite tags a case or thread carries.
    if (tag === 'tag') {
      if (!Array.isArray(sample.tags) || !sample.tags.includes(value)) return false;
    } else if (TAG_VALUE[tag as Exclude<ThresholdTag, 'tag'>](sample) !== value) return false;
  }
  return true;
}

/**
 * `{model:a,outcome:ok}` and `{outcome:ok,model:a}` are one scope. Tag values are user text that
 * may hold commas and colons, so the key is JSON of the sorted pairs, never a joined string.
 */
export function scopeKeyOf(scope: Readonly<Record<string, string>>): string {
  return JSON.stringify(Object.entries(scope).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * A scope naming an outcome decides itself which requests it judges: its timings come from every
 * request of that outcome and its skipped turns count. Otherwise, as summary.json: timings of
 * answers (outcome ok) only, skipped turns left out (they were never sent).
 */
export function namesOutcome(scope: Readonly<Record<string, string>>): boolean {
  return Object.hasOwn(scope, 'outcome');
}

/** The scope is exactly one model (or nothing): the summary's own per-model (or total) accumulator answers it. */
export function summaryScopeOf(scope: Readonly<Record<string, string>>): { model: string | null } | null {
  const tags = Object.keys(scope);
  if (tags.length === 0) return { model: null };
  if (tags.length === 1 && tags[0] === 'model') return { model: scope.model ?? null };
  return null;
}
