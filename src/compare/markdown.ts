// The `--markdown FILE` summary: short enough for a pull-request comment, escaped so answers cannot break it.
import { escapeControls } from '../domain/controls.js';
import { modelLabel } from '../report/format.js';
import { creditsCell, itemLabel, modelVerdict, passRateCell, passRateLine, regressionReason, timingCell } from './labels.js';
import type { Comparison, ItemChange } from './types.js';

export const MARKDOWN_ITEM_LIMIT = 20;

/**
 * Escapes what GitHub-flavoured markdown would interpret inside a line (emphasis, code, links, table
 * pipes, strike) and HTML, and keeps a value on one line; parentheses need nothing once `[` and `]` are escaped.
 * An `@name` in an answer would notify that GitHub user or team from the PR comment (a backslash
 * does not stop it): a zero-width space after the `@` does (bots such as Renovate do the same).
 */
export function escapeMarkdown(text: string): string {
  // Controls first (`\u202e`), so the backslash below shows them as text.
  return escapeControls(text)
    .replace(/[\r\n\u2028\u2029]+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/@/g, '@&#8203;')
    .replace(/([\\`*_[\]|~])/g, '\\$1');
}

function list(title: string, items: readonly ItemChange[], line: (i: ItemChange) => string): string[] {
  if (items.length === 0) return [];
  const out = ['', `#### ${title}`, ''];
  for (const item of items.slice(0, MARKDOWN_ITEM_LIMIT)) out.push(`- ${line(item)}`);
  if (items.length > MARKDOWN_ITEM_LIMIT) out.push(`- … and ${items.length - MARKDOWN_ITEM_LIMIT} more (see compare.html)`);
  return out;
}

function modelTable(c: Comparison): string[] {
  const rows = Object.entries(c.models).map(([model, m]) =>
    [modelLabel(model), passRateCell(m), timingCell(m.ttfc_ms), timingCell(m.latency_ms), timingCell(m.latency_ms, 'p95'), creditsCell(m), modelVerdict(m)]
      .map(escapeMarkdown).join(' | '),
  );
  if (rows.length === 0) return [];
  return [
    '', '#### Latency and credits', '',
    '| model | pass rate | TTFC p50 (ms) | latency p50 (ms) | latency p95 (ms) | credits / request | verdict |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r} |`),
  ];
}

export function renderCompareMarkdown(c: Comparison): string {
  const n = c.counts;
  const mark = c.verdict === 'pass' ? '✅ PASS' : c.verdict === 'incomplete' ? '⚠️ INCOMPLETE' : '❌ FAIL';
  const lines = [
    `### kbbench compare: ${mark}`,
    '',
    `**${escapeMarkdown(c.head.suite)}** · base \`${c.base.run_id.slice(0, 8)}\` (${c.base.samples} requests) → head \`${c.head.run_id.slice(0, 8)}\` (${c.head.samples} requests)`,
    '',
    '| matched | regressions | fixes | changed answers | missing | added |',
    '|---:|---:|---:|---:|---:|---:|',
    `| ${n.matched} | ${n.regressions} | ${n.fixes} | ${n.changed} | ${n.missing} | ${n.added} |`,
  ];
  const passRate = passRateLine(c.pass_rate ?? null);
  if (passRate) lines.push('', escapeMarkdown(passRate));
  if (c.reasons.length > 0) lines.push('', `**Failed on:** ${c.reasons.map(escapeMarkdown).join('; ')}`);
  lines.push(...list('Regressions (pass → fail)', c.regressions, (r) => `**${escapeMarkdown(itemLabel(r))}**: ${escapeMarkdown(regressionReason(r))}`));
  lines.push(...list('Fixes (fail → pass)', c.fixes, (r) => escapeMarkdown(itemLabel(r))));
  // Regressions and fixes are listed above; here only answers that changed but kept their outcome.
  const others = c.changed.filter((x) => x.base.pass === x.head.pass).sort((a, b) => a.similarity - b.similarity);
  lines.push(...list('Other changed answers (least similar first)', others, (r) => `${escapeMarkdown(itemLabel(r))}: similarity ${r.similarity.toFixed(2)}`));
  lines.push(...modelTable(c));
  for (const w of c.warnings) lines.push('', `> ⚠️ ${escapeMarkdown(w)}`);
  const o = c.options;
  lines.push(
    '',
    `<sub>Latency: Mann-Whitney U on matched items, Holm-adjusted, alpha ${o.alpha}, a regression only above ${Math.round(o.latency_tolerance * 1000) / 10}% on the median · credits: paired bootstrap, tolerance ${Math.round(o.credits_tolerance * 1000) / 10}% · fails on: ${o.fail_on.join(', ') || 'nothing'} · kbbench</sub>`,
  );
  return `${lines.join('\n')}\n`;
}
