// report.html's errors (grouped by kind, one example each) and thresholds (value and verdict) sections.
import type { ThresholdResult } from '../../domain/run.js';
import type { ErrorGroup } from '../evidence.js';
import { formatCount, modelLabel, thresholdValueText } from '../format.js';
import { esc } from './escape.js';

export function renderErrors(groups: readonly ErrorGroup[]): string {
  if (groups.length === 0) return '<p class="card">No request errors. ✓</p>';
  const rows = groups.map((g) => {
    const models = Object.entries(g.models).map(([m, n]) => `${esc(modelLabel(m))} ×${n}`).join('<br>');
    const e = g.example;
    const where = `${esc(modelLabel(e.model))} · ${esc(e.label)}${e.status !== null ? ` · HTTP ${e.status}` : ''}`;
    return `<tr><th scope="row" class="text"><code>${esc(g.kind)}</code></th><td>${formatCount(g.count)}</td><td class="text">${models}</td><td class="text"><div class="note">${where}</div>${esc(e.message)}</td></tr>`;
  });
  return `<div class="card table-scroll"><table>
<caption class="sr-only">Request errors by kind</caption>
<thead><tr><th scope="col" class="text">Kind</th><th scope="col">Count</th><th scope="col" class="text">Models</th><th scope="col" class="text">Example</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></div>`;
}

function scopeText(scope: Record<string, string>): string {
  const parts = Object.entries(scope).map(([k, v]) => `${k}:${v}`);
  return parts.length > 0 ? `{${parts.join(',')}}` : 'whole run';
}

export function renderThresholds(thresholds: readonly ThresholdResult[]): string {
  if (thresholds.length === 0) return '<p class="card">No thresholds were set for this run.</p>';
  const rows = thresholds.map((t) => {
    const verdict = t.not_judged !== undefined ? '<span>not judged</span>' : t.pass ? '<span class="status-pass">✓ pass</span>' : '<span class="status-fail">✗ fail</span>';
    const value = thresholdValueText(t);
    return `<tr><th scope="row" class="text"><code>${esc(t.metric)}</code></th><td class="text">${esc(scopeText(t.scope))}</td><td class="text"><code>${esc(t.expression)}</code></td><td>${esc(value)}</td><td>${verdict}</td></tr>`;
  });
  return `<div class="card table-scroll"><table>
<caption class="sr-only">Thresholds and their verdicts</caption>
<thead><tr><th scope="col" class="text">Metric</th><th scope="col" class="text">Scope</th><th scope="col" class="text">Expression</th><th scope="col">Value</th><th scope="col">Verdict</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></div>`;
}
