// The short plain-text summary of a comparison the CLI prints: verdict, counts, each regression, a table per model.
import { renderTable } from '../report/console-summary.js';
import { modelLabel } from '../report/format.js';
import { creditsCell, itemLabel, modelVerdict, passRateCell, passRateLine, regressionReason, timingCell } from './labels.js';
import type { Comparison } from './types.js';

/** Long lists are cut here in the console; compare.json and compare.html hold them all. */
export const CONSOLE_ITEM_LIMIT = 25;

export function renderCompareConsole(c: Comparison): string {
  const n = c.counts;
  const lines = [
    `compare: ${c.verdict.toUpperCase()} · ${c.base.suite} · base ${c.base.samples} requests → head ${c.head.samples}`,
    `  ${n.matched} items matched · ${n.regressions} regressions · ${n.fixes} fixes · ${n.changed} changed answers · ${n.missing} missing · ${n.added} added${n.not_compared > 0 ? ` · ${n.not_compared} not compared (outside the head's plan)` : ''}`,
  ];
  const passRate = passRateLine(c.pass_rate ?? null);
  if (passRate) lines.push(`  ${passRate}`);
  if (c.missing.length > 0) {
    lines.push('missing (in the base, planned by the head or gone from its suite, no result):');
    for (const m of c.missing.slice(0, CONSOLE_ITEM_LIMIT)) lines.push(`  ✗ ${itemLabel(m)}`);
    if (c.missing.length > CONSOLE_ITEM_LIMIT) lines.push(`  … and ${c.missing.length - CONSOLE_ITEM_LIMIT} more (compare.html)`);
  }
  if (c.regressions.length > 0) {
    lines.push('regressions (pass → fail, of the item or of one of its checks):');
    const flaky = new Set(c.flaky_regressions ?? []);
    for (const r of c.regressions.slice(0, CONSOLE_ITEM_LIMIT)) {
      lines.push(`  ${flaky.has(r.item_id) ? '~ flaky' : '✗'} ${itemLabel(r)}: ${regressionReason(r)}${flaky.has(r.item_id) ? ` (base ${r.base.passed}/${r.base.runs}, head ${r.head.passed}/${r.head.runs} passed: noise unless the pass rate says otherwise)` : ''}`);
    }
    if (c.regressions.length > CONSOLE_ITEM_LIMIT) lines.push(`  … and ${c.regressions.length - CONSOLE_ITEM_LIMIT} more (compare.html)`);
  }
  if (c.confirm) {
    const confirmed = c.confirm.items.filter((i) => i.verdict === 'confirmed').length;
    lines.push(`--confirm ${c.confirm.repeats}: ${confirmed} of ${c.confirm.items.length} flips confirmed by every re-ask failing; ${c.confirm.items.length - confirmed} passed on a re-ask (flaky, not a failure) · ${c.confirm.dir}`);
  }
  if (c.fixes.length > 0) {
    lines.push(`fixes (fail → pass): ${c.fixes.slice(0, CONSOLE_ITEM_LIMIT).map(itemLabel).join(', ')}${c.fixes.length > CONSOLE_ITEM_LIMIT ? ', …' : ''}`);
  }
  const relabelled = c.label_changes ?? [];
  if (relabelled.length > 0) {
    lines.push("labels changed (a person's verdict, labels.csv):");
    for (const l of relabelled.slice(0, CONSOLE_ITEM_LIMIT)) lines.push(`  ${l.item_id}: ${l.base} → ${l.head}${l.head_note ? ` (${l.head_note})` : ''}`);
    if (relabelled.length > CONSOLE_ITEM_LIMIT) lines.push(`  … and ${relabelled.length - CONSOLE_ITEM_LIMIT} more (compare.json)`);
  }
  const rows = Object.entries(c.models).map(([model, m]) => [
    modelLabel(model), passRateCell(m), timingCell(m.ttfc_ms), timingCell(m.latency_ms), timingCell(m.latency_ms, 'p95'), creditsCell(m), modelVerdict(m),
  ]);
  if (rows.length > 0) lines.push('', renderTable(['model', 'pass rate', 'TTFC p50 ms', 'latency p50 ms', 'latency p95 ms', 'credits/request', 'verdict'], rows));
  for (const w of c.warnings) lines.push(`warning: ${w}`);
  if (c.reasons.length > 0) lines.push('', `failed on: ${c.reasons.join('; ')}`);
  return lines.join('\n');
}
