// A grader earns its gate: per model-graded check type, enough labels and a kappa at the bar, else its
// checks are reported but do not decide an answer's pass (a suite's `grader: { min_kappa, labels }`).
import type { Agreement } from './agreement.js';
import { agreement } from './agreement.js';
import type { CheckTypeCalibration, GraderCalibration } from '../domain/run.js';
import { MODEL_GRADED_TYPES } from '../domain/suite.js';
import type { RunLabel } from './run-labels.js';

export interface CalibrationRule {
  min_kappa: number;
  /** Fewer labelled answers than this and the type does not gate, whatever its kappa. */
  min_labels: number;
  labels: string;
}

/** The default of `min_labels`: below about 20 pairs kappa's interval spans most of [-1, 1]. */
export const DEFAULT_MIN_LABELS = 20;

function standing(rule: CalibrationRule, a: Agreement | undefined): CheckTypeCalibration {
  const n = a?.n ?? 0;
  const kappa = a?.kappa ?? null;
  const base = { n, kappa, kappa_ci95: a?.kappa_ci95 ?? null };
  if (n < rule.min_labels) return { ...base, gating: false, reason: `${n} label${n === 1 ? '' : 's'}, fewer than the ${rule.min_labels} required` };
  if (kappa === null) return { ...base, gating: false, reason: `kappa undefined over ${n} labels (one verdict only)` };
  if (kappa < rule.min_kappa) return { ...base, gating: false, reason: `kappa ${kappa.toFixed(2)} < ${rule.min_kappa} over ${n} labels` };
  return { ...base, gating: true, reason: `kappa ${kappa.toFixed(2)} ≥ ${rule.min_kappa} over ${n} labels` };
}

/** Each model-graded type the suite uses, judged on its agreement with people (`groups` keyed by type). */
export function calibrate(rule: CalibrationRule, groups: Readonly<Record<string, Agreement>>, types: readonly string[]): GraderCalibration {
  const result: Record<string, CheckTypeCalibration> = {};
  for (const type of types) if ((MODEL_GRADED_TYPES as readonly string[]).includes(type)) result[type] = standing(rule, groups[type]);
  return { min_kappa: rule.min_kappa, min_labels: rule.min_labels, labels: rule.labels, types: result };
}

/** A labels.csv alone (no run beside it): each row's person against the grader's verdict recorded with it. */
export function fileAgreement(labels: ReadonlyMap<string, RunLabel>): Record<string, Agreement> {
  const pairs = new Map<string, { human: boolean; grader: boolean }[]>();
  for (const label of labels.values()) {
    if (label.human === null || (label.grader !== 'pass' && label.grader !== 'fail')) continue;
    const list = pairs.get(label.type) ?? [];
    list.push({ human: label.human, grader: label.grader === 'pass' });
    pairs.set(label.type, list);
  }
  return Object.fromEntries([...pairs].map(([type, list]) => [type, agreement(list)]));
}

/** The check types that do not gate in this run (empty without a calibration rule). */
export function nonGatingTypes(calibration: GraderCalibration | undefined): Set<string> {
  if (calibration === undefined) return new Set();
  return new Set(Object.entries(calibration.types).filter(([, t]) => !t.gating).map(([type]) => type));
}
