// Line charts of report.html: percentile curves (log percentile axis) and the latency distribution.
// Latency over time has one chart, the Load section's per-second percentiles (load-section.ts).
import type { CurvePoint, Distribution } from '../../metrics/details.js';
import { CURVE_MARKS } from '../../metrics/histogram.js';
import { getOwn } from '../../metrics/own-record.js';
import { formatMs, formatTick, modelLabel } from '../format.js';
import { esc } from './escape.js';
import {
  axes, CHART, legend, linearScale, logTicks, marker, niceTicks, pathOf, PLOT_HEIGHT, PLOT_WIDTH, seriesIndex, svgFrame,
} from './chart-frame.js';

const X0 = CHART.left;
const X1 = CHART.left + PLOT_WIDTH;
const Y0 = CHART.top + PLOT_HEIGHT;
const Y1 = CHART.top;

/** Percentile → position on HDR's log axis: 0 → 0, 90 → 1, 99 → 2, 99.9 → 3 … */
export function percentileToLogX(percentile: number, cap: number): number {
  if (percentile >= 100) return cap;
  return Math.min(cap, Math.log10(100 / (100 - percentile)));
}

function percentileLabel(decade: number): string {
  if (decade === 0) return '0%';
  return `${(100 - 100 * 10 ** -decade).toFixed(Math.max(0, decade - 2))}%`;
}

function noData(title: string): string {
  return `<figure class="card"><figcaption>${esc(title)}</figcaption><p class="note">No successful answers to chart.</p></figure>`;
}

function figure(title: string, svg: string, models: readonly string[], note: string): string {
  return `<figure class="card"><figcaption>${esc(title)}</figcaption>${svg}${legend(models)}<p class="note">${esc(note)}</p></figure>`;
}

const own = (curves: Record<string, CurvePoint[] | undefined>, model: string): CurvePoint[] | undefined => getOwn(curves, model);

export function percentileChart(title: string, models: readonly string[], curves: Record<string, CurvePoint[] | undefined>): string {
  const present = models.filter((m) => (own(curves, m)?.length ?? 0) > 0);
  if (present.length === 0) return noData(title);
  // The axis runs one decade per power of ten of samples: beyond that every curve is flat at its max.
  const decades = Math.max(2, ...present.map((m) => Math.ceil(percentileToLogX(own(curves, m)!.at(-2)?.[0] ?? 0, 6))));
  const maxMs = Math.max(...present.map((m) => own(curves, m)!.at(-1)![1]));
  const yTicks = niceTicks(maxMs);
  const x = linearScale([0, decades], [X0, X1]);
  const y = linearScale([0, yTicks.at(-1)!], [Y0, Y1]);
  const xTicks = Array.from({ length: decades + 1 }, (_, d) => ({ at: x(d), label: percentileLabel(d) }));
  const body = [axes(xTicks, yTicks.map((v) => ({ at: y(v), label: formatTick(v) })), 'percentile (log scale)', 'ms')];
  models.forEach((model, i) => {
    const points = own(curves, model);
    if (!points || points.length === 0) return;
    const ownCap = Math.ceil(percentileToLogX(points.at(-2)?.[0] ?? 0, 6)) || 1;
    const xy = points.map(([p, ms]) => [x(percentileToLogX(p, ownCap)), y(ms)] as const);
    xy.push([x(decades), y(points.at(-1)![1])]);
    body.push(`<path class="line s${seriesIndex(i)}" d="${pathOf(xy)}"/>`);
    for (const [p, ms] of points.filter(([p]) => (CURVE_MARKS as readonly number[]).includes(p))) {
      body.push(marker(i, x(percentileToLogX(p, ownCap)), y(ms), `${modelLabel(model)} p${p}: ${formatMs(ms)} ms`));
    }
    const max = points.at(-1)![1];
    body.push(marker(i, x(decades), y(max), `${modelLabel(model)} max: ${formatMs(max)} ms`));
  });
  const label = `${title}: ${present.map((m) => `${modelLabel(m)} max ${formatMs(own(curves, m)!.at(-1)![1])} ms`).join('; ')}`;
  return figure(title, svgFrame(label, body.join('')), models, 'Markers at p50, p90, p99, p99.9 and the max. Lower is better.');
}

export function distributionChart(title: string, models: readonly string[], distribution: Distribution | null): string {
  if (!distribution) return noData(title);
  const edges = distribution.edges_ms;
  const shares = models.map((m) => {
    const counts = getOwn(distribution.counts, m) ?? [];
    const total = counts.reduce((a, b) => a + b, 0);
    return counts.map((c) => (total > 0 ? (c / total) * 100 : 0));
  });
  const yTicks = niceTicks(Math.max(1, ...shares.flat()));
  const lx = linearScale([Math.log10(edges[0]!), Math.log10(edges.at(-1)!)], [X0, X1]);
  const x = (ms: number): number => lx(Math.log10(ms));
  const y = linearScale([0, yTicks.at(-1)!], [Y0, Y1]);
  const ticks = logTicks(edges[0]!, edges.at(-1)!);
  const body = [axes(ticks.map((v) => ({ at: x(v), label: formatTick(v) })), yTicks.map((v) => ({ at: y(v), label: `${v}%` })), 'latency, ms (log scale)', '% of answers')];
  models.forEach((model, i) => {
    const share = shares[i]!;
    if (share.length === 0) return;
    const xy: Array<readonly [number, number]> = [[x(edges[0]!), y(0)]];
    share.forEach((pct, bin) => xy.push([x(edges[bin]!), y(pct)], [x(edges[bin + 1]!), y(pct)]));
    xy.push([x(edges.at(-1)!), y(0)]);
    body.push(`<path class="line s${seriesIndex(i)}" d="${pathOf(xy)}"/>`);
    const peak = share.indexOf(Math.max(...share));
    const mid = Math.sqrt(edges[peak]! * edges[peak + 1]!);
    body.push(marker(i, x(mid), y(share[peak]!), `${modelLabel(model)}: most answers (${share[peak]!.toFixed(1)}%) near ${formatMs(mid)} ms`));
  });
  return figure(title, svgFrame(`${title}, share of answers per latency bin`, body.join('')), models, 'Share of each model’s successful answers per latency bin; the marker shows the most common bin.');
}
