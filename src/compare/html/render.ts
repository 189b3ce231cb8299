// Assembles compare.html: one self-contained page (inline CSS and script; a CSP forbids any network).
import { formatCount, formatRate, formatTimestamp } from '../../report/format.js';
import { esc } from '../../report/html/escape.js';
import { verdictBadge } from '../../report/html/header.js';
import { pageHead } from '../../report/html/page-head.js';
import type { Comparison, RunRef } from '../types.js';
import { passRateLine } from '../labels.js';
import { renderChanges, renderOnly } from './items.js';
import { renderLatencyTable, renderModelTable } from './models.js';
import { COMPARE_SCRIPT } from './script.js';
import { COMPARE_STYLES } from './styles.js';

function kpi(label: string, value: number, sub: string): string {
  return `<div class="kpi"><div class="label">${esc(label)}</div><div class="value">${formatCount(value)}</div><div class="sub">${esc(sub)}</div></div>`;
}

function runMeta(role: string, r: RunRef): string {
  return `<div><dt>${esc(role)}</dt><dd><span class="mono">${esc(r.dir)}</span><br>${esc(formatTimestamp(r.started_at))} · ${esc(r.status)} · ${formatCount(r.samples)} requests · run <span class="mono">${esc(r.run_id)}</span></dd></div>`;
}

function labelChangesHtml(c: Comparison): string {
  const changes = c.label_changes ?? [];
  if (changes.length === 0) return '';
  const items = changes.map((l) => `<li><bdi>${esc(l.item_id)}</bdi>: ${esc(l.base)} → ${esc(l.head)}${l.head_note ? ` (${esc(l.head_note)})` : ''}</li>`);
  return `<ul class="label-changes" aria-label="Labels changed">${items.join('')}</ul>`;
}

function passRateHtml(c: Comparison): string {
  const line = passRateLine(c.pass_rate ?? null);
  return line ? `<p class="pass-rate" data-verdict="${esc(c.pass_rate!.verdict)}">${esc(line)}</p>` : '';
}

function header(c: Comparison): string {
  const o = c.options;
  const n = c.counts;
  const reasons = c.reasons.length > 0 ? `<ul class="reasons" aria-label="Why it failed">${c.reasons.map((r) => `<li>${esc(r)}</li>`).join('')}</ul>` : '';
  const warnings = c.warnings.length > 0 ? `<ul class="warnings" aria-label="Warnings">${c.warnings.map((w) => `<li>⚠ ${esc(w)}</li>`).join('')}</ul>` : '';
  return `<header class="page-header"><div class="wrap">
<div class="title-row"><h1><span class="tool">kbbench compare ·</span> ${esc(c.head.suite)}</h1>${verdictBadge(c.verdict)}</div>
<dl class="meta">${runMeta('Base', c.base)}${runMeta('Head', c.head)}
<div><dt>Judged with</dt><dd>latency tolerance ${esc(formatRate(o.latency_tolerance))} on the median · credits tolerance ${esc(formatRate(o.credits_tolerance))} · alpha ${esc(o.alpha)} · fails on ${esc(o.fail_on.join(', ') || 'nothing')}</dd></div></dl>
${reasons}${warnings}${labelChangesHtml(c)}${passRateHtml(c)}
<div class="kpis">${[
    kpi('Regressions', n.regressions, 'pass → fail'), kpi('Fixes', n.fixes, 'fail → pass'), kpi('Changed answers', n.changed, 'text differs'),
    kpi('Missing', n.missing, 'in base only'), kpi('Added', n.added, 'in head only'), kpi('Matched', n.matched, 'items on both sides'),
  ].join('')}</div>
</div></header>`;
}

function section(id: string, title: string, body: string, intro = ''): string {
  return `<section id="${id}" aria-labelledby="${id}-h"><h2 id="${id}-h">${esc(title)}</h2>${intro ? `<p class="note">${esc(intro)}</p>` : ''}${body}</section>`;
}

const SECTIONS = [
  ['regressions', 'Regressions'], ['models', 'Models'], ['fixes', 'Fixes'], ['changed', 'Changed answers'], ['missing', 'Missing'], ['added', 'Added'], ['not-compared', 'Not compared'],
] as const;

export function renderCompareHtml(c: Comparison): string {
  const nav = SECTIONS.map(([id, title]) => `<li><a href="#${id}">${esc(title)}</a></li>`).join('');
  const otherChanges = c.changed.filter((x) => x.base.pass === x.head.pass);
  const main = [
    section('regressions', `Regressions (${c.counts.regressions})`, renderChanges(c.regressions, 'regression', 'No item went from pass to fail.'), 'Items that passed in the base and fail in the head (for repeated items: by majority of the repeats).'),
    section('models', 'Models', `<h3>Latency (ms)</h3>${renderLatencyTable(c.models)}<h3 class="gap">Pass rate and credits</h3>${renderModelTable(c.models)}`,
      'Latency is judged on the median with a Mann-Whitney U test over the answers of items present in both runs (Holm-adjusted over every model and metric); a change is a regression only when it is significant AND larger than the tolerance. p95 and p99 are shown, not judged. Credits: a paired bootstrap interval over matched items.'),
    section('fixes', `Fixes (${c.counts.fixes})`, renderChanges(c.fixes, 'fix', 'No item went from fail to pass.')),
    section('changed', `Other changed answers (${otherChanges.length})`, renderChanges(otherChanges, 'changed', 'No other answer changed.'), 'Answers that differ but kept their pass/fail outcome (regressions and fixes are listed above).'),
    section('missing', `Missing (${c.counts.missing})`, renderOnly(c.missing, 'Every item of the base ran in the head.'), 'In the base run; the head planned it (or its suite no longer has the case or thread) and has no result.'),
    section('added', `Added (${c.counts.added})`, renderOnly(c.added, 'No new items.'), 'In the head run, not in the base run.'),
    section('not-compared', `Not compared (${c.not_compared.length})`, renderOnly(c.not_compared, 'The head planned every item of the base.'), 'In the base run, outside what the head planned (another model selection or shard): never a failure.'),
  ].join('\n');
  return `${pageHead(`kbbench compare · ${c.head.suite} · ${c.verdict.toUpperCase()}`, COMPARE_STYLES)}
<body>
<a class="skip" href="#main">Skip to the comparison</a>
${header(c)}
<nav class="toc" aria-label="Sections"><div class="wrap"><ul>${nav}</ul></div></nav>
<main id="main" class="wrap">
<div class="toolbar" role="search"><label for="filter">Filter items</label><input id="filter" type="search" placeholder="case, thread, model or prompt">
<button type="button" id="expand-all">Expand all</button><button type="button" id="collapse-all">Collapse all</button></div>
${main}
</main>
<footer><div class="wrap"><p>Generated by kbbench compare from the two runs' results.ndjson. compare.json holds every item and number shown here.</p></div></footer>
<div id="live" class="sr-only" aria-live="polite"></div>
<script>${COMPARE_SCRIPT}</script>
</body>
</html>
`;
}
