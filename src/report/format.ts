// Number and time formatting shared by the HTML and console reports (one place decides how 1234.5 ms reads).
import { DEFAULT_MODEL_LABEL } from '../plan/types.js';

/** `1.23`, `12.3`, `123`, `1,234`: about three significant digits, no false precision. */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '–';
  if (ms < 10) return ms.toFixed(2);
  if (ms < 100) return ms.toFixed(1);
  return Math.round(ms).toLocaleString('en-US');
}

/** An axis tick (0, 2.5, 10, 1,000): a round number, so no trailing zeros (`40.0`, `0.00`) either. */
export function formatTick(value: number): string {
  return Number(value.toPrecision(6)).toLocaleString('en-US', { maximumFractionDigits: 4 });
}

/**
 * A threshold's value, shown beside its expression: six significant digits, because rounding to
 * decimals turns credits per request of 0.000735 into "0.001" next to `avg<0.001`, which passed.
 */
export function formatThresholdValue(value: number | null): string {
  return value === null ? 'no data' : String(Number(value.toPrecision(6)));
}

/** A threshold's value in words: `not judged: why` for one that was not judged. */
export function thresholdValueText(t: { value: number | null; not_judged?: string }): string {
  return t.not_judged !== undefined ? `not judged: ${t.not_judged}` : formatThresholdValue(t.value);
}

export function formatCount(n: number | null | undefined): string {
  return n === null || n === undefined ? '–' : n.toLocaleString('en-US');
}

/** `95.5%`; never rounded to 100% or 0% when it is not: 9,999 passes of 10,000 is `>99.9%`. */
export function formatRate(rate: number | null | undefined): string {
  if (rate === null || rate === undefined) return '–';
  const pct = rate * 100;
  if (pct === 100 || pct === 0) return `${pct.toFixed(0)}%`;
  const shown = pct.toFixed(1);
  if (shown === '100.0') return '>99.9%';
  if (shown === '0.0') return '<0.1%';
  return `${shown}%`;
}

/**
 * Credits everywhere (console, report.html, estimate): always 5 decimals, the service's own unit
 * (0.00001), with thousands grouped: `0.36103`, `0.25090`, `0.01103`, `9,999.63897`. One format
 * lines figures up in a column, and a balance is never cut to an integer.
 */
export function formatCredits(credits: number | null | undefined): string {
  if (credits === null || credits === undefined) return '–';
  return credits.toLocaleString('en-US', { minimumFractionDigits: 5, maximumFractionDigits: 5 });
}

/** Credits in a CSV cell: the same 5 decimals, no thousands separator. */
export const creditsCell = (credits: number | null | undefined): string | null => (credits === null || credits === undefined ? null : credits.toFixed(5));

/** The same format under the name report.html's tables use. */
export const formatCreditAmount = formatCredits;

export function formatDurationMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${Math.round(s - m * 60)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** ISO timestamp → `2025-11-22 01:43:05 UTC` (UTC, so the report reads the same everywhere). */
export function formatTimestamp(iso: string | null | undefined): string {
  if (!iso) return '–';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * A run that names no model sends none, and its results carry the plan's label `default`: say
 * plainly that the service chose (the service knows no model called "default").
 */
export function modelLabel(model: string): string {
  return model === '' || model === DEFAULT_MODEL_LABEL ? 'service default' : model;
}
