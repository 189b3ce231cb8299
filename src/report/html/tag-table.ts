// report.html's per-tag table: pass rate, latency and credits of each suite tag (`tags: [billing]`).
import type { RequestStats } from '../../domain/summary.js';
import { formatCount, formatCreditAmount, formatMs, formatRate } from '../format.js';
import { esc } from './escape.js';

export function renderTagTable(tags: Readonly<Record<string, RequestStats>> | undefined): string {
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
  return `<div class="scroll"><table class="tags"><thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}
