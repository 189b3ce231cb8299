// report.html's charts over time for the Load section: lines (rates, latency percentiles) and a
// stacked area (answers and errors by kind), seconds since the run's start on the x axis.
import type { LoadPoint } from '../../metrics/load-analysis.js';
import { formatMs, formatTick } from '../format.js';
import { esc } from './escape.js';
import { axes, CHART, linearScale, marker, niceTicks, pathOf, PLOT_HEIGHT, PLOT_WIDTH, seriesIndex, svgFrame } from './chart-frame.js';

const X0 = CHART.left;
const X1 = CHART.left + PLOT_WIDTH;
const Y0 = CHART.top + PLOT_HEIGHT;
const Y1 = CHART.top;

export interface TimeSeries {
  label: string;
  /** The colour/dash/marker slot; two series may share a colour and differ by `dashed`. */
  slot: number;
  dashed?: boolean;
  /** [seconds since the start, value]; null values break the line. */
  points: Array<[number, number | null]>;
}

/** A vertical mark (the knee) at a time, with its words. */
export interface TimeMark {
  atS: number;
  label: string;
}

/** Solid or dashed by meaning (corrected, target), overriding the series' own dash. */
export function dashStyle(s: TimeSeries): string {
  return s.dashed ? ' style="stroke-dasharray: 5 3"' : ' style="stroke-dasharray: none"';
}

export function legendOf(series: readonly TimeSeries[]): string {
  const items = series.map((s) => {
    const i = seriesIndex(s.slot);
    const dash = dashStyle(s);
    const swatch = `<svg class="swatch" width="36" height="16" viewBox="0 0 36 16" aria-hidden="true"><line class="line s${i}"${dash} x1="2" x2="34" y1="8" y2="8"/>${marker(s.slot, 18, 8, '')}</svg>`;
    return `<li>${swatch}${esc(s.label)}</li>`;
  });
  return `<ul class="legend" aria-label="Legend">${items.join('')}</ul>`;
}

export function frame(maxS: number, maxY: number, yTitle: string, xTitle = 'seconds since the run started') {
  const xTicks = niceTicks(Math.max(1, maxS), 6);
  const yTicks = niceTicks(maxY);
  const x = linearScale([0, xTicks.at(-1)!], [X0, X1]);
  const y = linearScale([0, yTicks.at(-1)!], [Y0, Y1]);
  const grid = axes(xTicks.map((v) => ({ at: x(v), label: formatTick(v) })), yTicks.map((v) => ({ at: y(v), label: formatTick(v) })), xTitle, yTitle);
  return { x, y, grid };
}

export function markLines(marks: readonly TimeMark[], x: (v: number) => number): string {
  return marks
    .map((m) => `<line class="knee-mark" x1="${x(m.atS).toFixed(1)}" x2="${x(m.atS).toFixed(1)}" y1="${Y1}" y2="${Y0}"><title>${esc(m.label)}</title></line>`
      + `<text class="knee-label" x="${(x(m.atS) + 4).toFixed(1)}" y="${Y1 + 12}">${esc(m.label)}</text>`)
    .join('');
}

/** Split a series where values are missing, so a gap is drawn as a gap. */
export function runsOf(points: ReadonlyArray<[number, number | null]>): Array<Array<[number, number]>> {
  const runs: Array<Array<[number, number]>> = [[]];
  for (const [t, v] of points) {
    if (v === null) {
      if (runs.at(-1)!.length > 0) runs.push([]);
    } else runs.at(-1)!.push([t, v]);
  }
  return runs.filter((r) => r.length > 0);
}

export function timeLineChart(title: string, yTitle: string, series: readonly TimeSeries[], note: string, marks: readonly TimeMark[] = []): string {
  const values = series.flatMap((s) => s.points.map(([, v]) => v).filter((v): v is number => v !== null));
  const maxS = Math.max(1, ...series.flatMap((s) => s.points.map(([t]) => t)));
  const { x, y, grid } = frame(maxS, Math.max(1, ...values), yTitle);
  const body = [grid];
  for (const s of series) {
    const i = seriesIndex(s.slot);
    const dash = dashStyle(s);
    for (const run of runsOf(s.points)) body.push(`<path class="line s${i}"${dash} d="${pathOf(run.map(([t, v]) => [x(t), y(v)] as const))}"><title>${esc(s.label)}</title></path>`);
    const last = s.points.filter(([, v]) => v !== null).at(-1);
    if (last) body.push(marker(s.slot, x(last[0]), y(last[1]!), `${s.label} at ${formatTick(last[0])} s: ${formatMs(last[1])}`));
  }
  body.push(markLines(marks, x));
  return `<figure class="card load-chart"><figcaption>${esc(title)}</figcaption>${svgFrame(title, body.join(''))}${legendOf(series)}<p class="note">${esc(note)}</p></figure>`;
}

/** Stacked areas: each layer's per-second value on top of the ones before it. */
export function stackedAreaChart(title: string, yTitle: string, layers: readonly TimeSeries[], note: string, marks: readonly TimeMark[] = []): string {
  const times = layers[0]?.points.map(([t]) => t) ?? [];
  const tops = times.map((_, k) => layers.reduce((sum, l) => sum + (l.points[k]?.[1] ?? 0), 0));
  const { x, y, grid } = frame(Math.max(1, ...times), Math.max(1, ...tops), yTitle);
  const body = [grid];
  const base = times.map(() => 0);
  for (const layer of layers) {
    const top = times.map((_, k) => base[k]! + (layer.points[k]?.[1] ?? 0));
    const upper = times.map((t, k) => [x(t), y(top[k]!)] as const);
    const lower = times.map((t, k) => [x(t), y(base[k]!)] as const).reverse();
    const i = seriesIndex(layer.slot);
    body.push(`<path class="area f${i}" d="${pathOf([...upper, ...lower])} Z"><title>${esc(layer.label)}</title></path>`);
    top.forEach((v, k) => (base[k] = v));
  }
  body.push(markLines(marks, x));
  return `<figure class="card load-chart"><figcaption>${esc(title)}</figcaption>${svgFrame(title, body.join(''))}${legendOf(layers)}<p class="note">${esc(note)}</p></figure>`;
}

/** Seconds since the start of each point, at the middle of its span. */
export function timesOf(points: readonly LoadPoint[]): number[] {
  return points.map((p) => Math.max(0, p.t_s + p.seconds / 2));
}
