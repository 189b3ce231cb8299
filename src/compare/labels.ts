// How the compare reports name items and changes, so console, markdown and HTML say the same thing the same way.
import { caseLabelOf } from '../metrics/case-stats.js';
import { formatCredits, formatMs, formatRate, modelLabel } from '../report/format.js';
import type { CheckRegression, ItemChange, ItemRef, ItemSide, ModelChange, PassRateChange, TimingChange } from './types.js';

/** `refund-window × gpt-4o`, `plans-followup turn 2 × gpt-4o`, named as report.html names its rows. */
export function itemLabel(ref: ItemRef): string {
  return `${caseLabelOf(ref)} × ${modelLabel(ref.model)}`;
}

/** `+12.5%`, `−3%` (a real minus sign), `±0%`; `–` when unknown. */
export function signedPercent(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  if (Math.abs(x) < 0.0005) return '±0%';
  return `${x > 0 ? '+' : '−'}${formatRate(Math.abs(x))}`;
}

/** `2/3 passed`, or `passed`/`failed` for a single run. */
export function sideOutcome(side: ItemSide): string {
  if (side.runs === 1) return side.pass ? 'passed' : side.errors.length > 0 ? `failed (${side.errors.join(', ')})` : 'failed';
  return `${side.passed}/${side.runs} passed`;
}

/** Why the head side failed, in one short line: its first failing check or error. */
export function failureReason(side: ItemSide): string {
  return side.errors[0] ?? side.failed_checks[0] ?? 'failed';
}

/** `check 2 (contains) newly fails: expected to contain "72 hours"…`: the check named by position and type. */
export function checkRegressionLabel(c: CheckRegression): string {
  return `check ${c.check} (${c.type}) newly fails${c.detail ? `: ${c.detail}` : ''}`;
}

/** Why a regression is one: the checks that newly fail, else the head's first failing check or error. */
export function regressionReason(change: ItemChange): string {
  const [first, ...rest] = change.newly_failed_checks;
  if (first === undefined) return failureReason(change.head);
  return `${checkRegressionLabel(first)}${rest.length > 0 ? ` (and ${rest.length} more check${rest.length === 1 ? '' : 's'})` : ''}`;
}

/** ▲ for a judged rise, ▼ for a judged fall, = otherwise: a symbol, so colour is never the only signal. */
export function trendMark(change: { regression: boolean; improvement: boolean }): string {
  return change.regression ? '▲' : change.improvement ? '▼' : '=';
}

export function timingCell(t: TimingChange, key: 'p50' | 'p95' | 'p99' = 'p50'): string {
  return `${formatMs(t.base[key])} → ${formatMs(t.head[key])} (${signedPercent(t.change[key])})`;
}

export function passRateCell(m: ModelChange): string {
  return `${formatRate(m.pass_rate.base)} → ${formatRate(m.pass_rate.head)}`;
}

export function creditsCell(m: ModelChange): string {
  const c = m.credits_per_request;
  return `${formatCredits(c.base)} → ${formatCredits(c.head)} (${signedPercent(c.change)})`;
}

/** The model's verdict in words: which gates it tripped, or what improved. */
export function modelVerdict(m: ModelChange): string {
  if (!m.matched) return 'one side only';
  const words: string[] = [];
  if (m.ttfc_ms.regression) words.push('TTFC slower');
  if (m.latency_ms.regression) words.push('latency slower');
  if (m.credits_per_request.regression) words.push('credits up');
  if (words.length > 0) return `▲ ${words.join(', ')}`;
  if (m.latency_ms.improvement || m.ttfc_ms.improvement) words.push('faster');
  if (m.credits_per_request.improvement) words.push('cheaper');
  return words.length > 0 ? `▼ ${words.join(', ')}` : '= within noise';
}

/** `pass rate 84.0% → 80.5% (−3.5 pts, 95% CI −7.1 to +0.2, p=0.06): no significant change`. */
export function passRateLine(p: PassRateChange | null): string | null {
  if (!p) return null;
  const pts = (x: number): string => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(x * 100).toFixed(1)}`;
  const verdict = p.verdict === 'no_difference' ? 'no significant change' : p.verdict;
  return `pass rate ${formatRate(p.base)} → ${formatRate(p.head)} (${pts(p.difference)} pts, 95% CI ${pts(p.ci95[0])} to ${pts(p.ci95[1])}, p=${p.p_value.toPrecision(2)}, ${p.items} items): ${verdict}`;
}
