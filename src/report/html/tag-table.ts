// report.html's per-tag table: pass rate, latency and credits of each suite tag (`tags: [billing]`).
import type { RequestStats, TagModelCredits } from '../../domain/summary.js';
import { modelLabel } from '../format.js';
import { formatCount, formatCreditAmount, formatMs, formatRate } from '../format.js';
import { esc } from './escape.js';

export function renderTagTable(tags: Readonly<Record<string, RequestStats>> | undefined, byModel?: Readonly<Record<string, Record<string, TagModelCredits>>>): string {
  const entries = Object.entries(tags ?? {});
  if (entries.length === 0) return '<p class="muted">No case or thread has tags (<code>tags: [billing]</code> in YAML, a <code>tags</code> column in CSV).</p>';
  const head = ['Tag', 'Requests', 'Errors', 'Pass rate', 'Latency p50 (ms)', 'Latency p95 (ms)', 'Credits', 'Credits per request'];
  const rows = entries.map(([tag, s]) => {
    const cells = [
      formatCount(s.requests), formatCount(s.errors), formatRate(s.pass_rate), formatMs(s.latency_ms?.p50 ?? null),
      formatMs(s.latency_ms?.p95 ?? null), formatCreditAmount(s.credits_used), formatCreditAmount(s.credits_per_request),
    ];
    return `<tr><th scope="row">${esc(tag)}</th>${cells.map((c) => `<td class="num">${esc(c)}</td>`).join('')}</tr>`;
  });
  return `<div class="scroll"><table class="tags"><thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table></div>${tagCreditsByModel(byModel)}`;
}

/** Credits per request and per passed answer of each tag, one column pair per model: a tag's cost is a model's. */
function tagCreditsByModel(byModel: Readonly<Record<string, Record<string, TagModelCredits>>> | undefined): string {
  const tags = Object.entries(byModel ?? {});
  const models = [...new Set(tags.flatMap(([, row]) => Object.keys(row)))];
  if (tags.length === 0 || models.length === 0) return '';
  const head = ['Tag', ...models.flatMap((m) => [`${modelLabel(m)}: credits/request`, `${modelLabel(m)}: per passed`])];
  const rows = tags.map(([tag, row]) => {
    const cells = models.flatMap((m) => [formatCreditAmount(row[m]?.credits_per_request ?? null), formatCreditAmount(row[m]?.credits_per_passed ?? null)]);
    return `<tr><th scope="row">${esc(tag)}</th>${cells.map((c) => `<td class="num">${esc(c)}</td>`).join('')}</tr>`;
  });
  return `<div class="scroll"><table class="tags tag-credits"><caption>Credits per tag and model</caption><thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}
