// The plain-text summary the CLI prints after a run: totals, a table per model, thresholds.
import type { Summary } from '../domain/summary.js';
import { renderConsoleLoad } from './console-load.js';
import { formatCount, formatCredits, formatDurationMs, formatMs, formatRate, formatThresholdValue, modelLabel } from './format.js';

export interface ConsoleSummaryOptions {
  /** Shown in the first line when given. */
  suiteName?: string;
}

const HEADERS = ['model', 'requests', 'errors', 'pass rate', 'TTFC p50', 'TTFC p95', 'latency p50', 'latency p95', 'credits'];

function modelRows(summary: Summary): string[][] {
  return Object.entries(summary.models).map(([model, m]) => [
    modelLabel(model),
    formatCount(m.requests),
    formatCount(m.errors),
    formatRate(m.pass_rate),
    formatMs(m.ttfc_ms?.p50),
    formatMs(m.ttfc_ms?.p95),
    formatMs(m.latency_ms?.p50),
    formatMs(m.latency_ms?.p95),
    formatCredits(m.credits_used),
  ]);
}

/** Left-aligns the first column, right-aligns numbers, two spaces between columns. */
export function renderTable(headers: readonly string[], rows: readonly string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(headers), rule, ...rows.map(line)].join('\n');
}

function headline(summary: Summary, options: ConsoleSummaryOptions): string[] {
  const t = summary.totals;
  const verdict = summary.verdict === 'pass' ? 'PASS' : 'FAIL';
  const suite = options.suiteName ? `${options.suiteName} · ` : '';
  const extras = [
    t.skipped > 0 ? `skipped ${formatCount(t.skipped)}` : '',
    t.dropped > 0 ? `dropped ${formatCount(t.dropped)}` : '',
    t.credits_unknown > 0 ? `credits unknown for ${formatCount(t.credits_unknown)}` : '',
    t.unreadable_lines > 0 ? `unreadable result lines ${formatCount(t.unreadable_lines)}` : '',
  ].filter(Boolean);
  const remaining = t.credits_remaining !== null ? ` (remaining ${formatCredits(t.credits_remaining)})` : '';
  return [
    `${suite}run ${summary.run_id} · ${summary.status} · verdict ${verdict}`,
    `requests ${formatCount(t.requests)}  ok ${formatCount(t.ok)}  errors ${formatCount(t.errors)}  ` +
      `pass rate ${formatRate(t.pass_rate)}  credits ${formatCredits(t.credits_used)}${remaining}  ` +
      `duration ${formatDurationMs(t.duration_ms)}`,
    ...(extras.length > 0 ? [extras.join('  ')] : []),
  ];
}

function thresholdLines(summary: Summary): string[] {
  if (summary.thresholds.length === 0) return [];
  return [
    'thresholds:',
    ...summary.thresholds.map((t) => {
      const scope = Object.entries(t.scope).map(([k, v]) => `${k}:${v}`).join(',');
      const metric = scope ? `${t.metric}{${scope}}` : t.metric;
      const value = formatThresholdValue(t.value);
      return `  ${t.pass ? 'ok  ' : 'FAIL'} ${metric} ${t.expression} (value ${value})`;
    }),
  ];
}

/** Plain text (no colour codes): the CLI decides how to decorate it. Times are in ms. */
export function renderConsoleSummary(summary: Summary, options: ConsoleSummaryOptions = {}): string {
  const parts = [headline(summary, options).join('\n')];
  const rows = modelRows(summary);
  if (rows.length > 0) parts.push(renderTable(HEADERS, rows));
  const load = renderConsoleLoad(summary, renderTable);
  if (load) parts.push(load);
  const thresholds = thresholdLines(summary);
  if (thresholds.length > 0) parts.push(thresholds.join('\n'));
  return `${parts.join('\n\n')}\n`;
}
