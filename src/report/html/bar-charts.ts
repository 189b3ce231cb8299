// Bar charts of report.html: credits by model, and credits by case per model (labelled bars, not colour alone).
import { sumCredits } from '../../credits/units.js';
import type { Summary } from '../../domain/summary.js';
import { getOwn } from '../../metrics/own-record.js';
import { formatCreditAmount, formatTick, modelLabel } from '../format.js';
import { esc } from './escape.js';
import { CHART, legend, linearScale, marker, niceTicks, seriesIndex, svgFrame } from './chart-frame.js';

const LABEL_WIDTH = 170;
const VALUE_SPACE = 70;
/** Beyond this many cases the chart shows the most expensive ones (the table of samples has all). */
export const MAX_CASES_CHARTED = 12;

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function xAxis(scale: (v: number) => number, ticks: number[], top: number, bottom: number): string {
  return ticks
    .map((v) => {
      const at = scale(v).toFixed(1);
      return `<line class="grid" x1="${at}" x2="${at}" y1="${top}" y2="${bottom}"/><text x="${at}" y="${bottom + 14}" text-anchor="middle">${esc(formatTick(v))}</text>`;
    })
    .join('');
}

function bar(series: number, y: number, height: number, x0: number, x1: number, value: number, title: string): string {
  const s = seriesIndex(series);
  const width = Math.max(1, x1 - x0);
  return (
    `<rect class="f${s}" x="${x0}" y="${y.toFixed(1)}" width="${width.toFixed(1)}" height="${height}" rx="2"><title>${esc(title)}</title></rect>` +
    marker(series, x0 + width + 8, y + height / 2, title) +
    `<text class="value" x="${(x0 + width + 16).toFixed(1)}" y="${(y + height / 2 + 4).toFixed(1)}">${esc(formatCreditAmount(value))}</text>`
  );
}

/** A chart of zeros says nothing: when no credits were reported, one sentence says so instead. */
function noCredits(summary: Summary): boolean {
  return Object.values(summary.models).every((m) => m.credits_used === 0);
}

export function creditsByModelChart(summary: Summary): string {
  const models = Object.keys(summary.models);
  const title = 'Credits by model';
  if (models.length === 0) return '';
  if (noCredits(summary)) {
    const why = summary.totals.credits_unknown > 0 ? ` ${summary.totals.credits_unknown} answers had no usage chunk, so their credits are unknown.` : '';
    return `<figure class="card"><figcaption>${esc(title)}</figcaption><p class="note">No credits were spent or reported.${esc(why)}</p></figure>`;
  }
  const rowHeight = 30;
  const height = models.length * rowHeight + 40;
  const max = Math.max(...models.map((m) => summary.models[m]!.credits_used));
  const ticks = niceTicks(max, 4);
  const x = linearScale([0, ticks.at(-1)!], [LABEL_WIDTH, CHART.width - VALUE_SPACE]);
  const body = [xAxis(x, ticks, 6, height - 26)];
  models.forEach((model, i) => {
    const y = 10 + i * rowHeight;
    const m = summary.models[model]!;
    body.push(`<text class="label" x="${LABEL_WIDTH - 8}" y="${y + 15}" text-anchor="end">${esc(truncate(modelLabel(model), 24))}</text>`);
    const what = `${modelLabel(model)}: ${formatCreditAmount(m.credits_used)} credits over ${m.requests} requests`;
    body.push(bar(i, y, 20, LABEL_WIDTH, x(m.credits_used), m.credits_used, what));
  });
  const label = `${title}: ${models.map((m) => `${modelLabel(m)} ${formatCreditAmount(summary.models[m]!.credits_used)}`).join(', ')}`;
  const unknown = summary.totals.credits_unknown > 0 ? ` ${summary.totals.credits_unknown} answers had no usage chunk: their credits are unknown and not counted.` : '';
  return `<figure class="card"><figcaption>${esc(title)}</figcaption>${svgFrame(label, body.join(''), height)}<p class="note">Credits spent by answers and by checks that asked the service.${esc(unknown)}</p></figure>`;
}

export function creditsByCaseChart(summary: Summary): string {
  const models = Object.keys(summary.models);
  const title = 'Credits by case';
  const totalOf = (row: Summary['cases'][number]): number => sumCredits(Object.values(row.models).map((c) => c.credits_used));
  const rows = [...summary.cases].sort((a, b) => totalOf(b) - totalOf(a)).slice(0, MAX_CASES_CHARTED);
  if (rows.length === 0 || models.length === 0 || noCredits(summary)) return '';
  const barHeight = 12;
  const groupHeight = models.length * (barHeight + 3) + 16;
  const height = rows.length * groupHeight + 40;
  const max = Math.max(0, ...rows.flatMap((r) => Object.values(r.models).map((c) => c.credits_used)));
  const ticks = niceTicks(max, 4);
  const x = linearScale([0, ticks.at(-1)!], [LABEL_WIDTH, CHART.width - VALUE_SPACE]);
  const body = [xAxis(x, ticks, 6, height - 26)];
  rows.forEach((row, r) => {
    const top = 10 + r * groupHeight;
    const labelY = top + groupHeight / 2 - 2;
    body.push(`<text class="label" x="${LABEL_WIDTH - 8}" y="${labelY.toFixed(1)}" text-anchor="end">${esc(truncate(row.label, 24))}<title>${esc(row.label)}</title></text>`);
    models.forEach((model, i) => {
      const credits = getOwn(row.models, model)?.credits_used;
      if (credits === undefined) return;
      const what = `${row.label} · ${modelLabel(model)}: ${formatCreditAmount(credits)} credits`;
      body.push(bar(i, top + i * (barHeight + 3), barHeight, LABEL_WIDTH, x(credits), credits, what));
    });
  });
  const truncated = summary.cases_truncated;
  // Past summary.json's case limit only its worst cases are at hand: say so rather than call them the most expensive of all.
  const more = truncated
    ? ` Showing the ${rows.length} most expensive of the ${summary.cases.length} worst cases summary.json keeps (of ${truncated.distinct}; cases.csv has every one).`
    : summary.cases.length > rows.length ? ` Showing the ${rows.length} most expensive of ${summary.cases.length} cases.` : '';
  return `<figure class="card"><figcaption>${esc(title)}</figcaption>${svgFrame(`${title}, per model`, body.join(''), height)}${legend(models, false)}<p class="note">Bars in legend order within each case; the marker shape names the model.${esc(more)}</p></figure>`;
}
