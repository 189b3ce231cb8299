// One history chart: a metric of one model (or tag) over runs in time order, its 95% band, change
// points as dashed rules, each point a link to that run's report.html when it sits beside it.
import { esc } from '../../report/html/escape.js';
import { axes, CHART, linearScale, marker, niceTicks, pathOf, PLOT_HEIGHT, PLOT_WIDTH, svgFrame } from '../../report/html/chart-frame.js';
import { formatTick } from '../../report/format.js';
import type { HistoryChangePoint, HistorySeries } from '../types.js';
import { shownLabel } from '../shown-label.js';

/** Past this many points a chart draws its line only: markers that close cannot be told apart or clicked. */
export const MAX_MARKERS = 400;

const X0 = CHART.left;
const X1 = CHART.left + PLOT_WIDTH;
const Y0 = CHART.top + PLOT_HEIGHT;
const Y1 = CHART.top;

/** A report link as history.json gives it: relative, or no link at all (a scheme such as javascript: is refused). */
export function safeHref(href: string | undefined): string | undefined {
  return href === undefined || /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//') ? undefined : href;
}

export function formatValue(metric: string, value: number | null): string {
  if (value === null) return '–';
  if (metric === 'pass_rate') return `${(value * 100).toFixed(1)}%`;
  if (metric === 'credits_per_answer') return value.toPrecision(3);
  if (metric === 'errors') return String(value);
  return value >= 100 ? value.toFixed(0) : value.toFixed(1);
}

/** A run's name under its tick: its label, else its date (its time when every run shares one date). */
function tickLabel(series: HistorySeries, i: number, oneDay: boolean): string {
  const p = series.points[i]!;
  if (p.label !== undefined) return p.label.length > 14 ? `${p.label.slice(0, 13)}…` : p.label;
  return oneDay ? p.started_at.slice(11, 16) : p.started_at.slice(0, 10);
}

export function pointTitle(series: HistorySeries, i: number): string {
  const p = series.points[i]!;
  const names = [p.label === undefined ? undefined : shownLabel(p.label), p.commit?.slice(0, 12)].filter(Boolean).join(' · ');
  const ci = p.ci95 ? ` (95% ${formatValue(series.metric, p.ci95[0])}–${formatValue(series.metric, p.ci95[1])})` : '';
  return `${p.started_at}${names ? ` ${names}` : ''}: ${formatValue(series.metric, p.value)}${ci}`;
}

export function historyChart(series: HistorySeries, title: string, changes: readonly HistoryChangePoint[]): string {
  const n = series.points.length;
  const x = linearScale(n > 1 ? [0, n - 1] : [-1, 1], [X0 + 8, X1 - 8]);
  const values = series.points.map((p) => p.value).filter((v): v is number => v !== null);
  const ratio = series.metric === 'pass_rate';
  const top = ratio ? 1 : Math.max(...values, ...series.points.map((p) => p.ci95?.[1] ?? 0));
  const yTicks = ratio ? [0, 0.25, 0.5, 0.75, 1] : niceTicks(top);
  const y = linearScale([0, yTicks.at(-1)!], [Y0, Y1]);
  const tickEvery = Math.max(1, Math.ceil(n / 6));
  const oneDay = n > 0 && series.points.every((p) => p.started_at.slice(0, 10) === series.points[0]!.started_at.slice(0, 10));
  const xTicks = series.points.flatMap((_, i) => (i % tickEvery === 0 ? [{ at: x(i), label: tickLabel(series, i, oneDay) }] : []));
  const yLabel = (v: number): string => (ratio ? `${Math.round(v * 100)}%` : formatTick(v));
  const body = [axes(xTicks, yTicks.map((v) => ({ at: y(v), label: yLabel(v) })), 'run (time order)', ratio ? 'pass rate' : title)];
  const band = series.points.flatMap((p, i) => (p.ci95 ? [[i, p.ci95] as const] : []));
  if (band.length > 1) {
    const upper = band.map(([i, ci]) => [x(i), y(ci[1])] as const);
    const lower = band.map(([i, ci]) => [x(i), y(ci[0])] as const).reverse();
    body.push(`<path class="band" d="${pathOf([...upper, ...lower])} Z"><title>95% interval</title></path>`);
  }
  for (const change of changes) {
    const at = series.points.findIndex((p) => p.run_id === change.run_id);
    if (at < 1) continue;
    const cx = (x(at - 1) + x(at)) / 2;
    body.push(`<line class="change" x1="${cx.toFixed(1)}" x2="${cx.toFixed(1)}" y1="${Y1}" y2="${Y0}"><title>${esc(`change point: ${formatValue(series.metric, change.before)} → ${formatValue(series.metric, change.after)} (p = ${change.p_value.toFixed(3)})`)}</title></line>`);
  }
  const xy = series.points.flatMap((p, i) => (p.value === null ? [] : [[x(i), y(p.value)] as const]));
  if (xy.length > 0) body.push(`<path class="line s0" d="${pathOf(xy)}"/>`);
  if (n <= MAX_MARKERS) {
    series.points.forEach((p, i) => {
      if (p.value === null) return;
      const dot = marker(0, x(i), y(p.value), pointTitle(series, i));
      const href = safeHref(p.report);
      body.push(href !== undefined ? `<a href="${esc(href)}" class="point">${dot}</a>` : dot);
    });
  }
  return svgFrame(`${title} over ${n} runs`, body.join(''));
}
