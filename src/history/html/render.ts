// history.html: every run of a suite on one page, self-contained (inline CSS, SVG and script; the
// CSP of report.html forbids any network), every name from a run escaped and bidi-isolated.
import { esc, userText } from '../../report/html/escape.js';
import { pageHead } from '../../report/html/page-head.js';
import { STYLES } from '../../report/html/styles.js';
import { METRIC_TITLES, type HistoryChangePoint, type HistoryJson, type HistorySeries } from '../types.js';
import { formatValue, historyChart, safeHref } from './chart.js';
import { HISTORY_SCRIPT } from './script.js';
import { shownLabel } from '../shown-label.js';

const EXTRA_STYLES = `
.filters { display: flex; flex-wrap: wrap; gap: .75rem 1.5rem; margin: 1rem 0; }
.filters label { display: flex; flex-direction: column; font-size: .8rem; color: var(--muted); }
.filters select { font: inherit; font-size: .95rem; padding: .25rem .4rem; max-width: 22rem; }
svg .band { fill: var(--s0); fill-opacity: .15; stroke: none; }
svg .change { stroke: var(--fail); stroke-width: 2; stroke-dasharray: 6 4; }
svg a.point:focus-visible { outline: 2px solid var(--accent); }
.kind-flaky { color: var(--error); font-weight: 600; }
.kind-regressed { color: var(--fail); font-weight: 600; }
.kind-fixed { color: var(--pass); font-weight: 600; }
td, th { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--border); vertical-align: top; }
`;

/** The names a row or figure is filtered by, as data attributes (escaped: they are a run's text). */
function dataAttrs(suite: string, model: string, tag: string | undefined, metric: string): string {
  return `data-suite="${esc(suite)}" data-model="${esc(model)}" data-tag="${esc(tag ?? '')}" data-metric="${esc(metric)}"`;
}

function groupName(model: string, tag: string | undefined): string {
  return tag !== undefined ? `tag ${tag}` : model;
}

function figure(series: HistorySeries, changes: readonly HistoryChangePoint[]): string {
  const title = METRIC_TITLES[series.metric];
  const mine = changes.filter((c) => c.suite === series.suite && c.model === series.model && c.tag === series.tag && c.metric === series.metric);
  const note = mine.length === 0 ? 'No change point.' : `${mine.length} change point${mine.length > 1 ? 's' : ''} (dashed).`;
  return `<figure class="card" ${dataAttrs(series.suite, series.model, series.tag, series.metric)}><figcaption>${userText(groupName(series.model, series.tag), 80)} · ${esc(title)}</figcaption>${historyChart(series, title, mine)}<p class="note">${esc(note)}</p></figure>`;
}

function options(values: readonly string[], all: string): string {
  return [`<option value="*">${esc(all)}</option>`, ...values.map((v) => `<option value="${esc(v)}">${esc(v.length > 80 ? `${v.slice(0, 80)}…` : v)}</option>`)].join('');
}

function filters(json: HistoryJson): string {
  const models = [...new Set(json.series.filter((s) => s.tag === undefined).map((s) => s.model))];
  const tags = [...new Set(json.series.flatMap((s) => (s.tag !== undefined ? [s.tag] : [])))];
  const metrics = [...new Set(json.series.map((s) => s.metric))];
  const suites = [...new Set(json.runs.map((r) => r.suite))];
  const select = (id: string, label: string, body: string): string => `<label for="${id}">${esc(label)}<select id="${id}" data-filter="${id.slice(2)}">${body}</select></label>`;
  return `<form class="filters" aria-label="Filters" onsubmit="return false">
${suites.length > 1 ? select('f-suite', 'Suite', options(suites, 'every suite')) : ''}
${select('f-model', 'Model', options(models, 'every model'))}
${select('f-tag', 'Tag', `<option value="">models (no tag)</option>${tags.length > 0 ? options(tags, 'every tag') : ''}`)}
${select('f-metric', 'Metric', [`<option value="*">every metric</option>`, ...metrics.map((m) => `<option value="${esc(m)}">${esc(METRIC_TITLES[m])}</option>`)].join(''))}
</form>`;
}

function runName(label: string | undefined, commit: string | undefined, runId: string): string {
  return [label === undefined ? undefined : shownLabel(label), commit?.slice(0, 12)].filter(Boolean).join(' · ') || runId.slice(0, 8);
}

function changeTable(json: HistoryJson): string {
  if (json.change_points.length === 0) return '<p class="muted">No change point in any series: every metric held steady, as far as the permutation test can tell.</p>';
  const rows = json.change_points.map((c) => `<tr ${dataAttrs(c.suite, c.model, c.tag, c.metric)}><td>${userText(c.suite, 60)}</td><td>${userText(groupName(c.model, c.tag), 60)}</td><td>${esc(METRIC_TITLES[c.metric])}</td>
<td>${userText(runName(c.previous_label, c.previous_commit, c.previous_run_id), 60)} → ${userText(runName(c.label, c.commit, c.run_id), 60)}<br><span class="muted">${esc(c.started_at)}</span></td>
<td class="num">${esc(formatValue(c.metric, c.before))} → ${esc(formatValue(c.metric, c.after))}</td><td class="num">${esc(c.p_value.toFixed(3))}</td></tr>`);
  return `<div class="scroll"><table><thead><tr><th scope="col">Suite</th><th scope="col">Model</th><th scope="col">Metric</th><th scope="col">Between runs</th><th scope="col">Before → after (segment means)</th><th scope="col">p</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

/** Rows of the flips table at most (flaky first, then regressions): history.json lists every one. */
export const MAX_FLIP_ROWS = 500;
const KIND_ORDER = { flaky: 0, regressed: 1, fixed: 2 } as const;

function flipTable(json: HistoryJson): string {
  if (json.flips.length === 0) return '<p class="muted">No question changed its outcome between runs.</p>';
  const names = new Map(json.runs.map((r) => [r.run_id, runName(r.label, r.commit, r.run_id)]));
  const shown = [...json.flips].sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind]).slice(0, MAX_FLIP_ROWS);
  const more = json.flips.length > shown.length ? `<p class="note">The first ${MAX_FLIP_ROWS} of ${json.flips.length} shown; history.json lists every one.</p>` : '';
  const rows = shown.map((f) => {
    const cut = f.runs.length > 12 ? `, … ${f.runs.length - 12} more` : '';
    const runs = f.runs.slice(0, 12).map((r) => `${userText(names.get(r.run_id) ?? r.run_id, 40)} ${r.passed ? 'pass' : 'fail'}`).join(', ') + cut;
    return `<tr ${dataAttrs(f.suite, f.model, undefined, 'pass_rate')}><td>${userText(f.item, 80)}</td><td>${userText(f.model, 60)}</td><td class="kind-${esc(f.kind)}">${esc(f.kind)}</td><td>${runs || 'repeats disagreed within a run'}</td></tr>`;
  });
  return `<p class="note">Flaky: flipped back and forth (or its repeats disagreed in a run) — noise, not a regression.</p><div class="scroll"><table><thead><tr><th scope="col">Question</th><th scope="col">Model</th><th scope="col">Kind</th><th scope="col">Flipped in (new outcome)</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>${more}`;
}

/** People's labels that changed between runs (labels.csv): a section only when there is one. */
function labelChangeSection(json: HistoryJson): string {
  const changes = json.label_changes ?? [];
  if (changes.length === 0) return '';
  const names = new Map(json.runs.map((r) => [r.run_id, runName(r.label, r.commit, r.run_id)]));
  const rows = changes.slice(0, MAX_FLIP_ROWS).map((c) => `<tr data-suite="${esc(c.suite)}"><td>${userText(c.item_id, 80)}</td><td>${userText(names.get(c.run_id) ?? c.run_id, 40)}</td><td>${esc(c.from)} → ${esc(c.to)}</td></tr>`);
  return `<section id="label-changes" aria-labelledby="label-changes-h"><h2 id="label-changes-h">Labels that changed</h2><p class="note">A person's verdict (kbbench review) differs from the last run that labelled the same answer.</p><div class="scroll"><table><thead><tr><th scope="col">Answer</th><th scope="col">In run</th><th scope="col">Label</th></tr></thead><tbody>${rows.join('')}</tbody></table></div></section>`;
}

function runTable(json: HistoryJson): string {
  const rows = json.runs.map((r) => {
    const kb = r.knowledge_base ? [r.knowledge_base.version, r.knowledge_base.sha256?.slice(0, 12)].filter(Boolean).join(' · ') : '–';
    const href = safeHref(r.report);
    const link = href !== undefined ? `<a href="${esc(href)}">report</a>` : '–';
    return `<tr data-suite="${esc(r.suite)}"><td>${esc(r.started_at)}</td><td>${userText(r.run_id, 40)}</td><td>${userText(shownLabel(r.label ?? ''), 60)}</td><td>${userText(r.commit?.slice(0, 12) ?? '', 20)}</td><td>${userText(kb, 40)}</td><td>${esc(r.status)}</td><td>${esc(r.verdict)}</td><td>${link}</td></tr>`;
  });
  return `<div class="scroll"><table><thead><tr><th scope="col">Started</th><th scope="col">Run</th><th scope="col">Label</th><th scope="col">Commit</th><th scope="col">Knowledge base</th><th scope="col">Status</th><th scope="col">Verdict</th><th scope="col">Report</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

export function renderHistoryHtml(json: HistoryJson): string {
  const suites = [...new Set(json.runs.map((r) => r.suite))];
  const first = json.runs[0]?.started_at ?? '';
  const last = json.runs.at(-1)?.started_at ?? '';
  const charts = suites.map((suite) => {
    const figures = json.series.filter((s) => s.suite === suite).map((s) => figure(s, json.change_points)).join('\n');
    return `<section data-suite="${esc(suite)}"><h3>Suite ${userText(suite, 80)}</h3><div class="charts">${figures}</div></section>`;
  });
  const flakyCount = json.flaky.length;
  return `${pageHead(`kbbench history · ${suites.join(', ')}`, STYLES + EXTRA_STYLES)}
<body>
<header class="page-header"><div class="wrap">
<div class="title-row"><h1><span class="tool">kbbench</span> history · ${userText(suites.join(', '), 120)}</h1></div>
<dl class="meta"><div><dt>Runs</dt><dd>${json.runs.length}</dd></div><div><dt>From</dt><dd>${esc(first)}</dd></div><div><dt>To</dt><dd>${esc(last)}</dd></div>
<div><dt>Change points</dt><dd>${json.change_points.length}</dd></div><div><dt>Flaky questions</dt><dd>${flakyCount}</dd></div>
<div><dt>Method</dt><dd>e-divisive means, permutation test (α = ${esc(json.method.significance)}, ${esc(json.method.permutations)} permutations, seed ${esc(json.method.seed)})</dd></div></dl>
</div></header>
<main id="main" class="wrap">
${filters(json)}
<section id="charts" aria-labelledby="charts-h"><h2 id="charts-h">Over time</h2>${charts.join('\n')}</section>
<section id="changes" aria-labelledby="changes-h"><h2 id="changes-h">Change points</h2>${changeTable(json)}</section>
<section id="flips" aria-labelledby="flips-h"><h2 id="flips-h">Questions that flipped</h2>${flipTable(json)}</section>
${labelChangeSection(json)}
<section id="runs" aria-labelledby="runs-h"><h2 id="runs-h">Runs</h2>${runTable(json)}</section>
</main>
<footer><div class="wrap"><p>Generated by kbbench ${esc(json.generated_by.version)} from run.json and summary.json of each run (history.json holds the same figures).
A point links to its run's report.html when the report sits beside it. Pass-rate bands are 95% intervals (Wilson, over questions).</p></div></footer>
<div id="live" class="sr-only" aria-live="polite"></div>
<script>${HISTORY_SCRIPT}</script>
</body>
</html>
`;
}
