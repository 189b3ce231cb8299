// A forest plot of each pair's differences (b − a) with 95% intervals, one panel per metric: where zero falls is the verdict.
import type { ModelPair } from '../../domain/summary.js';
import { modelLabel } from '../format.js';
import { formatDifference, intervalWords, metricLine, PAIR_METRICS, powerWords } from '../model-pairs-text.js';
import { esc } from './escape.js';

const WIDTH = 760;
const LABEL = 250;
/** Room for half of the right tick's label (`+1,389 ms`), centred on the axis end: at 20 it was cut off. */
const RIGHT = 40;
const ROW = 28;
const TOP = 8;
const AXIS = 30;

function panel(pairs: readonly ModelPair[], metric: (typeof PAIR_METRICS)[number]): string {
  const shown = pairs.filter((p) => p[metric.key] !== null);
  const bounds = shown.flatMap((p) => { const m = p[metric.key]!; return m.ci95 ?? [m.difference]; });
  if (shown.length === 0) return '';
  const extent = Math.max(...bounds.map((v) => Math.abs(v)), 1e-9) * 1.1;
  const x = (v: number): number => LABEL + ((v + extent) / (2 * extent)) * (WIDTH - LABEL - RIGHT);
  const height = TOP + shown.length * ROW + AXIS;
  const rows = shown.map((p, i) => {
    const m = p[metric.key]!;
    const y = TOP + i * ROW + ROW / 2;
    const label = `${modelLabel(p.b)} − ${modelLabel(p.a)}`;
    const words = `${label}: ${metricLine(p, m, metric.unit)}`;
    return `<g class="forest-row ${m.verdict === 'no_difference' ? 'no-diff' : 'significant'}" role="listitem" aria-label="${esc(words)}" data-verdict="${m.verdict}">
<title>${esc(words)}</title>
<text x="${LABEL - 10}" y="${y + 4}" text-anchor="end">${esc(label)}</text>
${m.ci95 === null ? `<text class="too-few" x="${x(m.difference) + 10}" y="${y + 4}">too few questions to tell</text>` : `<line class="ci" x1="${x(m.ci95[0]).toFixed(1)}" x2="${x(m.ci95[1]).toFixed(1)}" y1="${y}" y2="${y}"/>`}
<circle class="estimate" cx="${x(m.difference).toFixed(1)}" cy="${y}" r="5"/>
</g>`;
  });
  const axisY = TOP + shown.length * ROW;
  const ticks = [-extent, 0, extent].map((v) => `<text class="tick" x="${x(v).toFixed(1)}" y="${axisY + 18}" text-anchor="middle">${esc(v === 0 ? '0' : formatDifference(v, metric.unit))}</text>`);
  return `<figure class="forest" data-metric="${metric.key}"><figcaption>${esc(metric.name)}: b − a and its interval</figcaption>
<svg width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="list" aria-label="${esc(metric.name)} differences">
<line class="zero" x1="${x(0).toFixed(1)}" x2="${x(0).toFixed(1)}" y1="${TOP / 2}" y2="${axisY}"/>
<line class="axis" x1="${LABEL}" x2="${WIDTH - RIGHT}" y1="${axisY}" y2="${axisY}"/>
${rows.join('\n')}
${ticks.join('')}
</svg></figure>`;
}

export function renderForestPlot(pairs: readonly ModelPair[]): string {
  if (pairs.length === 0) return '';
  const power = pairs.map((p) => ({ p, words: powerWords(p) })).filter((e) => e.words !== null)
    .map((e) => `<li>${esc(`${modelLabel(e.p.b)} vs ${modelLabel(e.p.a)}: ${e.words}`)}</li>`);
  return `<div class="card" id="forest-plot"><h3>Differences between models</h3>
<p class="note">Each line is a pair of models on the questions both answered: the dot is the difference (b − a), the bar its interval (${esc(intervalWords(pairs.length))}). A bar that crosses the zero line is no detectable difference and its dot is hollow; a bar clear of zero is a call and its dot is filled. A row with no bar had too few questions for any call. Lower is better for times and credits.</p>
${PAIR_METRICS.map((m) => panel(pairs, m)).join('\n')}
${power.length > 0 ? `<ul class="note power">${power.join('')}</ul>` : ''}</div>`;
}
