// SVG chart primitives: plot frame, scales, ticks, axes, series markers and legends (no chart library).
import { modelLabel } from '../format.js';
import { esc, userText } from './escape.js';
import { SERIES_COUNT } from './styles.js';

export const CHART = { width: 640, height: 300, left: 62, right: 18, top: 14, bottom: 48 } as const;
export const PLOT_WIDTH = CHART.width - CHART.left - CHART.right;
export const PLOT_HEIGHT = CHART.height - CHART.top - CHART.bottom;

export type Scale = (value: number) => number;

export function linearScale(domain: readonly [number, number], range: readonly [number, number]): Scale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0 || 1;
  return (value) => r0 + ((value - d0) / span) * (r1 - r0);
}

/** 0 … a round number ≥ max, with ~count ticks at 1/2/5 steps. */
export function niceTicks(max: number, count = 5): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= rough) ?? rough;
  const ticks: number[] = [];
  for (let v = 0; v < max + step * 0.999; v += step) ticks.push(Math.round(v * 1e6) / 1e6);
  return ticks;
}

/** Mantissas per decade, coarse to fine: a narrow range (900–1,600 ms) still gets a few ticks. */
const LOG_MANTISSAS = [[1, 2, 5], [1, 1.5, 2, 3, 5, 7], [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9]] as const;

/** 1-2-5 ticks between low and high for log axes; finer steps when that leaves fewer than three. */
export function logTicks(low: number, high: number): number[] {
  let ticks: number[] = [];
  for (const mantissas of LOG_MANTISSAS) {
    ticks = [];
    for (let exp = Math.floor(Math.log10(low)); 10 ** exp <= high; exp++) {
      for (const m of mantissas) {
        const v = m * 10 ** exp;
        if (v >= low && v <= high) ticks.push(Number(v.toPrecision(3)));
      }
    }
    if (ticks.length >= 3) return ticks;
  }
  return ticks;
}

export function seriesIndex(i: number): number {
  return i % SERIES_COUNT;
}

/** A marker whose shape follows the series (circle, square, triangle, diamond…), with a tooltip. */
export function marker(series: number, x: number, y: number, title: string): string {
  const s = seriesIndex(series);
  const shape = s % 4;
  const cls = `class="f${s} s${s}"`;
  const t = title ? `<title>${esc(title)}</title>` : '';
  const fx = x.toFixed(1);
  const fy = y.toFixed(1);
  if (shape === 0) return `<circle ${cls} cx="${fx}" cy="${fy}" r="4">${t}</circle>`;
  if (shape === 1) return `<rect ${cls} x="${(x - 3.5).toFixed(1)}" y="${(y - 3.5).toFixed(1)}" width="7" height="7">${t}</rect>`;
  if (shape === 2) return `<path ${cls} d="M${fx} ${(y - 4.5).toFixed(1)} l4.5 8 h-9 z">${t}</path>`;
  return `<path ${cls} d="M${fx} ${(y - 5).toFixed(1)} l5 5 l-5 5 l-5 -5 z">${t}</path>`;
}

export interface AxisTick {
  at: number;
  label: string;
}

/** Grid lines, both axes, their tick labels and titles, in plot coordinates already scaled. */
export function axes(xTicks: readonly AxisTick[], yTicks: readonly AxisTick[], xTitle: string, yTitle: string): string {
  const bottom = CHART.top + PLOT_HEIGHT;
  const right = CHART.left + PLOT_WIDTH;
  const parts: string[] = [];
  for (const t of yTicks) {
    parts.push(`<line class="grid" x1="${CHART.left}" x2="${right}" y1="${t.at.toFixed(1)}" y2="${t.at.toFixed(1)}"/>`);
    parts.push(`<text x="${CHART.left - 6}" y="${(t.at + 4).toFixed(1)}" text-anchor="end">${esc(t.label)}</text>`);
  }
  for (const t of xTicks) {
    parts.push(`<line class="grid" x1="${t.at.toFixed(1)}" x2="${t.at.toFixed(1)}" y1="${CHART.top}" y2="${bottom}"/>`);
    parts.push(`<text x="${t.at.toFixed(1)}" y="${bottom + 16}" text-anchor="middle">${esc(t.label)}</text>`);
  }
  parts.push(`<line class="axis" x1="${CHART.left}" x2="${right}" y1="${bottom}" y2="${bottom}"/>`);
  parts.push(`<line class="axis" x1="${CHART.left}" x2="${CHART.left}" y1="${CHART.top}" y2="${bottom}"/>`);
  parts.push(`<text x="${CHART.left + PLOT_WIDTH / 2}" y="${CHART.height - 6}" text-anchor="middle">${esc(xTitle)}</text>`);
  const midY = CHART.top + PLOT_HEIGHT / 2;
  parts.push(`<text transform="translate(14 ${midY}) rotate(-90)" text-anchor="middle">${esc(yTitle)}</text>`);
  return parts.join('');
}

/** `<path d>` through points, straight segments or steps. */
export function pathOf(points: ReadonlyArray<readonly [number, number]>, step = false): string {
  return points
    .map(([x, y], i) => {
      if (i === 0) return `M${x.toFixed(1)} ${y.toFixed(1)}`;
      return step ? `H${x.toFixed(1)} V${y.toFixed(1)}` : `L${x.toFixed(1)} ${y.toFixed(1)}`;
    })
    .join(' ');
}

/** The chart's <svg> element: an image with a label for screen readers (the tables carry the numbers). */
export function svgFrame(label: string, body: string, height: number = CHART.height): string {
  return `<svg class="chart" viewBox="0 0 ${CHART.width} ${height}" role="img" aria-label="${esc(label)}"><title>${esc(label)}</title>${body}</svg>`;
}

/** A legend label longer than this is cut (the whole name on hover). */
const LEGEND_LABEL_CHARS = 60;

/** A legend item per model showing its colour, dash and marker, so a series is never told by colour alone. */
export function legend(models: readonly string[], withLine = true): string {
  const items = models.map((model, i) => {
    const s = seriesIndex(i);
    const line = withLine ? `<line class="line s${s}" x1="2" x2="34" y1="8" y2="8"/>` : '';
    const swatch = `<svg class="swatch" width="36" height="16" viewBox="0 0 36 16" aria-hidden="true">${line}${marker(i, 18, 8, '')}</svg>`;
    return `<li>${swatch}${userText(modelLabel(model), LEGEND_LABEL_CHARS)}</li>`;
  });
  return `<ul class="legend" aria-label="Legend">${items.join('')}</ul>`;
}
