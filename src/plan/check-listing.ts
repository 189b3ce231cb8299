// A request's checks as the suite was read: type, value (after templating), threshold, weight,
// metric. What `validate --json` lists and its text form summarises, so a migrated suite (a
// promptfoo config) can be diffed against what its author meant.
import type { CheckSpec } from '../domain/suite.js';

export interface CheckAsRead {
  type: string;
  value: unknown;
  /** similar's minimum score, levenshtein's maximum edits. */
  threshold?: number;
  weight?: number;
  metric?: string;
}

/** A check's value and threshold in promptfoo's terms: `{to, min}` is value `to` with threshold `min`. */
function valueOf(spec: CheckSpec): Pick<CheckAsRead, 'value' | 'threshold'> {
  if (spec.type === 'similar') return { value: spec.value.to, threshold: spec.value.min };
  if (spec.type === 'levenshtein' || spec.type === 'not-levenshtein') return { value: spec.value.to, threshold: spec.value.max };
  if (spec.type === 'judge' && Object.keys(spec.value).length === 1) return { value: spec.value.rubric };
  return { value: spec.value ?? null };
}

export function checkAsRead(spec: CheckSpec): CheckAsRead {
  const read: CheckAsRead = { type: spec.type, ...valueOf(spec) };
  if (read.threshold === undefined) delete read.threshold;
  if (spec.weight !== undefined) read.weight = spec.weight;
  if (spec.metric !== undefined) read.metric = spec.metric;
  return read;
}

function shortValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value) : JSON.stringify(value);
  return ` ${text.length > 60 ? `${text.slice(0, 57)}...` : text}`;
}

/** One line: `contains "Bonjour", similar "Ahoy" ≥ 0.6, is-json (weight 2)`. */
export function summarizeChecks(checks: readonly CheckAsRead[]): string {
  return checks
    .map((read) => {
      const bound = read.threshold === undefined ? '' : read.type === 'similar' ? ` ≥ ${read.threshold}` : ` ≤ ${read.threshold} edits`;
      const scoring = [read.weight === undefined ? '' : `weight ${read.weight}`, read.metric === undefined ? '' : `metric ${read.metric}`].filter(Boolean).join(', ');
      return `${read.type}${shortValue(read.value)}${bound}${scoring ? ` (${scoring})` : ''}`;
    })
    .join(', ');
}
