// compare.html's model tables: latency percentiles with the rank test's verdict, pass rate and credits per request.
import { formatCount, formatCredits, formatMs, formatRate, modelLabel } from '../../report/format.js';
import { esc, userText } from '../../report/html/escape.js';
import { modelVerdict, signedPercent, trendMark } from '../labels.js';
import type { ModelChange, TimingChange } from '../types.js';

/** A change cell: the value, its relative change, and ▲/▼ only when the comparison judged it (not for noise). */
function changeCell(base: string, head: string, change: number | null, judged: { regression: boolean; improvement: boolean } | null): string {
  const cls = judged?.regression ? ' class="up"' : judged?.improvement ? ' class="down"' : '';
  const mark = judged && (judged.regression || judged.improvement) ? ` ${trendMark(judged)}` : '';
  return `<td${cls}>${esc(base)} → ${esc(head)} <small>(${esc(signedPercent(change))})${mark}</small></td>`;
}

function pValue(t: TimingChange): string {
  const p = t.test.p_adjusted;
  if (p === null) return 'too few';
  return `${p < 0.0001 ? '<0.0001' : p.toPrecision(2)}${t.test.significant ? ' (significant)' : ''}`;
}

function timingRow(model: string, label: string, t: TimingChange): string {
  const verdict = t.regression ? '▲ slower' : t.improvement ? '▼ faster' : '= within noise';
  return `<tr><th scope="row">${userText(modelLabel(model), 80)}</th><td class="text">${esc(label)}</td>
${changeCell(formatMs(t.base.p50), formatMs(t.head.p50), t.change.p50, t)}
${changeCell(formatMs(t.base.p95), formatMs(t.head.p95), t.change.p95, null)}
${changeCell(formatMs(t.base.p99), formatMs(t.head.p99), t.change.p99, null)}
<td>${formatCount(t.base.n)} / ${formatCount(t.head.n)}</td><td>${esc(pValue(t))}</td><td class="text">${esc(verdict)}</td></tr>`;
}

export function renderLatencyTable(models: Record<string, ModelChange>): string {
  const rows = Object.entries(models).flatMap(([model, m]) => [timingRow(model, 'TTFC', m.ttfc_ms), timingRow(model, 'latency', m.latency_ms)]);
  if (rows.length === 0) return '<p class="empty">No model ran in both runs.</p>';
  return `<div class="table-scroll"><table id="latency-table"><caption class="sr-only">Latency in milliseconds, base → head</caption>
<thead><tr><th scope="col">model</th><th scope="col" class="text">metric</th><th scope="col">p50 (judged)</th><th scope="col">p95</th><th scope="col">p99</th><th scope="col">answers base / head</th><th scope="col">p (Holm)</th><th scope="col" class="text">verdict</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></div>`;
}

function ci(m: ModelChange): string {
  const interval = m.credits_per_request.test.ci;
  return interval ? `${signedPercent(interval[0])} … ${signedPercent(interval[1])}` : 'too few items';
}

export function renderModelTable(models: Record<string, ModelChange>): string {
  const rows = Object.entries(models).map(([model, m]) => {
    const c = m.credits_per_request;
    const passDelta = m.pass_rate.change === null ? '–' : `${m.pass_rate.change >= 0 ? '+' : '−'}${(Math.abs(m.pass_rate.change) * 100).toFixed(1)} pts`;
    const passCls = m.pass_rate.change !== null && m.pass_rate.change < 0 ? ' class="up"' : '';
    return `<tr><th scope="row">${userText(modelLabel(model), 80)}</th>
<td${passCls}>${esc(formatRate(m.pass_rate.base))} → ${esc(formatRate(m.pass_rate.head))} <small>(${esc(passDelta)})</small></td>
<td>${formatCount(m.requests.base)} / ${formatCount(m.requests.head)}</td>
${changeCell(formatCredits(c.base), formatCredits(c.head), c.change, c)}
<td>${esc(ci(m))}</td><td class="text">${esc(modelVerdict(m))}</td></tr>`;
  });
  if (rows.length === 0) return '<p class="empty">No models.</p>';
  return `<div class="table-scroll"><table id="model-changes"><caption class="sr-only">Pass rate and credits per request, base → head</caption>
<thead><tr><th scope="col">model</th><th scope="col">pass rate</th><th scope="col">requests base / head</th><th scope="col">credits / request (change over matched items)</th><th scope="col">CI of the change</th><th scope="col" class="text">verdict</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></div>`;
}
