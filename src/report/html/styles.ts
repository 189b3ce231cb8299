// report.html's inline stylesheet: light and dark palettes, tables, charts, the matrix and its answer panels.
/** Series colours (Okabe–Ito, colour-blind safe); each series also gets its own dash and marker. */
export const SERIES_COUNT = 8;

export const STYLES = `
:root {
  color-scheme: light dark;
  --bg: #f6f7f9; --fg: #1c1f26; --muted: #5b6270; --card: #ffffff; --border: #dde1e8; --grid: #e9ecf1;
  --accent: #2f5bd3; --accent-bg: #e8eefc; --best-bg: #fff4cc; --best-fg: #6b4e00;
  --pass: #17692b; --pass-bg: #dcf3e1; --fail: #a8231a; --fail-bg: #fde4e1;
  --error: #8a4b00; --error-bg: #ffecd1; --skip: #5b6270; --skip-bg: #eceef2;
  --s0: #0072b2; --s1: #d55e00; --s2: #009e73; --s3: #cc79a7; --s4: #7a5cc4; --s5: #b08900; --s6: #56b4e9; --s7: #6b6b6b;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0f1115; --fg: #e6e8ee; --muted: #9aa3b2; --card: #181b22; --border: #2c313c; --grid: #232833;
    --accent: #8fb0ff; --accent-bg: #1d2640; --best-bg: #3a3010; --best-fg: #ffe08a;
    --pass: #7ddc92; --pass-bg: #14301c; --fail: #ff9a8f; --fail-bg: #3d1714;
    --error: #ffc27a; --error-bg: #3a2610; --skip: #9aa3b2; --skip-bg: #222731;
    --s0: #56b4e9; --s1: #ff8c42; --s2: #3fd0a0; --s3: #e99ac8; --s4: #b39dff; --s5: #f0d04a; --s6: #8fd3ff; --s7: #b8b8b8;
  }
}
* { box-sizing: border-box; }
html { background: var(--bg); color: var(--fg); }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
h2, h3, h4, h5 { scroll-margin-top: 4rem; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: var(--card); padding: .5rem 1rem; z-index: 10; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.wrap { max-width: 1280px; margin: 0 auto; padding: 0 1.5rem; }
.page-header { background: var(--card); border-bottom: 1px solid var(--border); padding: 1.5rem 0 1.25rem; }
.title-row { display: flex; flex-wrap: wrap; align-items: center; gap: .75rem 1.25rem; }
h1 { font-size: 1.6rem; margin: 0; letter-spacing: -.01em; }
h1 .tool { color: var(--muted); font-weight: 500; }
h2 { font-size: 1.25rem; margin: 2.25rem 0 .75rem; }
h3 { font-size: 1.05rem; margin: 0 0 .5rem; }
.verdict { font-weight: 700; padding: .2rem .75rem; border-radius: 999px; border: 2px solid currentColor; font-size: .95rem; }
.verdict.pass { color: var(--pass); background: var(--pass-bg); }
.verdict.fail { color: var(--fail); background: var(--fail-bg); }
.verdict.incomplete { color: #8a5a00; background: #fff4d6; }
.meta { display: grid; grid-template-columns: repeat(auto-fill, minmax(250px, 1fr)); gap: .6rem 1.5rem; margin: 1rem 0 0; }
.meta div { min-width: 0; }
.meta dt { color: var(--muted); font-size: .75rem; text-transform: uppercase; letter-spacing: .04em; }
.meta dd { margin: 0; overflow-wrap: anywhere; }
.kpis { display: grid; grid-template-columns: repeat(auto-fit, minmax(140px, 1fr)); gap: .75rem; margin-top: 1.25rem; }
.kpi { background: var(--bg); border: 1px solid var(--border); border-radius: 10px; padding: .6rem .85rem; }
.kpi .label { color: var(--muted); font-size: .8rem; text-transform: uppercase; letter-spacing: .04em; }
.kpi .value { font-size: 1.35rem; font-weight: 650; font-variant-numeric: tabular-nums; }
.kpi .sub { color: var(--muted); font-size: .8rem; }
nav.toc { position: sticky; top: 0; z-index: 5; background: color-mix(in srgb, var(--bg) 92%, transparent); backdrop-filter: blur(6px); border-bottom: 1px solid var(--border); }
nav.toc ul { list-style: none; display: flex; flex-wrap: wrap; gap: 1.25rem; margin: 0; padding: .55rem 0; }
nav.toc a { text-decoration: none; font-weight: 550; }
.card { background: var(--card); border: 1px solid var(--border); border-radius: 12px; padding: 1rem 1.1rem; }
.note { color: var(--muted); font-size: .85rem; margin: .4rem 0 0; }
.table-scroll { overflow-x: auto; position: relative; }
th.group { text-align: center; border-bottom: 2px solid var(--border); }
#model-table th[scope="row"] { white-space: nowrap; font-weight: 600; }
#model-table td { white-space: nowrap; }
#model-table th, #model-table td { padding: .45rem .45rem; }
#model-table { font-size: 14px; }
#model-table .kinds { white-space: normal; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { padding: .45rem .6rem; border-bottom: 1px solid var(--border); text-align: right; vertical-align: top; }
th:first-child, td:first-child { text-align: left; }
thead th { font-size: .8rem; color: var(--muted); font-weight: 600; white-space: nowrap; vertical-align: bottom; }
th.text, td.text { text-align: left; }
.sort { all: unset; cursor: pointer; display: inline-flex; gap: .15rem; align-items: center; border-radius: 4px; }
.sort:focus-visible { outline: 3px solid var(--accent); }
.sort .arrow::after { content: "↕"; opacity: .45; }
th[aria-sort="ascending"] .sort .arrow::after { content: "▲"; opacity: 1; }
th[aria-sort="descending"] .sort .arrow::after { content: "▼"; opacity: 1; }
td.best { background: var(--best-bg); color: var(--best-fg); font-weight: 700; }
td .ci { display: block; font-size: 0.8em; color: var(--muted); font-weight: 400; }
#model-table tfoot td.pair-verdict { white-space: normal; font-size: .8em; font-weight: 650; line-height: 1.3; } #model-table tfoot td.no-diff { color: var(--muted); font-weight: 400; }
#forest-plot { margin-top: .75rem; } .forest svg { max-width: 100%; height: auto; } .forest text { font-size: 12px; fill: currentColor; }
.forest line.ci { stroke: var(--accent); stroke-width: 2; } .forest line.zero { stroke: currentColor; stroke-dasharray: 3 3; }
.forest line.axis { stroke: currentColor; opacity: 0.4; } .forest .no-diff circle { fill: var(--card); stroke: var(--accent); stroke-width: 2; }
.forest .significant circle { fill: var(--accent); }
.kinds { display: block; color: var(--muted); font-size: .78rem; }
.swatch { display: inline-block; vertical-align: middle; margin-right: .4rem; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(460px, 1fr)); gap: 1rem; align-items: start; }
figure { margin: 0; }
figcaption { font-weight: 600; margin-bottom: .4rem; }
svg.chart { width: 100%; height: auto; display: block; overflow: visible; }
svg text { fill: var(--muted); font-size: 11px; font-family: inherit; }
svg .grid { stroke: var(--grid); stroke-width: 1; }
svg .axis { stroke: var(--border); stroke-width: 1; }
svg .line { fill: none; stroke-width: 2.2; stroke-linejoin: round; stroke-linecap: round; }
svg .value { fill: var(--fg); font-size: 11px; }
svg .label { fill: var(--fg); font-size: 12px; }
${seriesRules()}
.legend { display: flex; flex-wrap: wrap; gap: .35rem 1.1rem; list-style: none; padding: 0; margin: .5rem 0 0; font-size: .85rem; }
.legend li { display: inline-flex; align-items: center; }
.matrix td, .matrix th { text-align: center; vertical-align: middle; }
.matrix thead th:first-child { text-align: left; }
.cell small { font-weight: 500; opacity: .85; }
.matrix th[scope="row"] { text-align: left; font-weight: 500; }
.matrix tr.thread th { text-align: left; background: var(--bg); font-weight: 650; }
.matrix th.turn { padding-left: 1.6rem; }
.cell { font: inherit; font-weight: 650; min-width: 5.5rem; padding: .25rem .6rem; border-radius: 8px; border: 1.5px solid currentColor; cursor: pointer; font-variant-numeric: tabular-nums; }
.cell.pass { color: var(--pass); background: var(--pass-bg); }
.cell.fail { color: var(--fail); background: var(--fail-bg); }
.cell.error { color: var(--error); background: var(--error-bg); }
.cell.skipped { color: var(--skip); background: var(--skip-bg); border-style: dashed; }
.cell[aria-expanded="true"] { box-shadow: 0 0 0 3px var(--accent); }
.detail { margin-top: 1rem; border: 2px solid var(--accent); }
.detail-head { display: flex; justify-content: space-between; align-items: start; gap: 1rem; }
.close { font: inherit; background: var(--bg); color: var(--fg); border: 1px solid var(--border); border-radius: 8px; padding: .25rem .7rem; cursor: pointer; }
.row-prompt { display: inline-block; max-width: 28rem; font-weight: normal; font-size: .85em; color: var(--muted, #555); }
.toolbar { display: flex; gap: .8rem; align-items: center; margin: .5rem 0; }
.prompt { background: var(--accent-bg); border-radius: 8px; padding: .6rem .8rem; margin: .5rem 0 .8rem; white-space: pre-wrap; overflow-wrap: anywhere; }
.turn-block + .turn-block { border-top: 1px dashed var(--border); margin-top: 1rem; padding-top: 1rem; }
.answers { display: grid; grid-template-columns: repeat(auto-fit, minmax(280px, 1fr)); gap: .8rem; }
.answer-col { border: 1px solid var(--border); border-radius: 10px; padding: .7rem .8rem; min-width: 0; }
.answer-col.focus { border-color: var(--accent); box-shadow: 0 0 0 2px var(--accent); }
.answer-col h4, .answer-col h5 { margin: 0 0 .4rem; font-size: .95rem; display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; }
.badge { font-size: .75rem; font-weight: 700; padding: .05rem .5rem; border-radius: 999px; border: 1px solid currentColor; }
.badge.pass { color: var(--pass); background: var(--pass-bg); }
.badge.fail { color: var(--fail); background: var(--fail-bg); }
.badge.error { color: var(--error); background: var(--error-bg); }
.badge.skipped { color: var(--skip); background: var(--skip-bg); }
.answer-error { color: var(--fail); font-weight: 600; font-size: .9rem; margin: .3rem 0; overflow-wrap: anywhere; }
.answer + .answer { border-top: 1px dashed var(--border); margin-top: .6rem; padding-top: .6rem; }
.answer pre { white-space: pre-wrap; overflow-wrap: anywhere; font: .85rem/1.45 var(--mono); background: var(--bg); border-radius: 6px; padding: .5rem .6rem; margin: .4rem 0; max-height: 22rem; overflow: auto; }
.facts { color: var(--muted); font-size: .8rem; display: flex; flex-wrap: wrap; gap: .15rem .8rem; }
.checks { list-style: none; padding: 0; margin: .3rem 0 0; font-size: .85rem; }
.checks li { overflow-wrap: anywhere; }
.checks .ok { color: var(--pass); font-weight: 700; }
.checks .no { color: var(--fail); font-weight: 700; }
.status-pass { color: var(--pass); font-weight: 700; }
.status-fail { color: var(--fail); font-weight: 700; }
code, .mono { font-family: var(--mono); font-size: .85em; overflow-wrap: anywhere; }
footer { color: var(--muted); font-size: .85rem; padding: 2rem 0 3rem; }
@media (max-width: 640px) { .charts { grid-template-columns: 1fr; } .wrap { padding: 0 .8rem; } }
@media print { nav.toc { display: none; } .detail[hidden] { display: block !important; } }
`;

function seriesRules(): string {
  // Dash patterns and markers carry the series as well as colour does (colour is never the only signal).
  const dashes = ['none', '8 4', '2 4', '10 4 2 4', '14 6', '4 2', '1 3', '12 3 3 3 3 3'];
  return Array.from({ length: SERIES_COUNT }, (_, i) =>
    `.s${i} { stroke: var(--s${i}); } .s${i}.line { stroke-dasharray: ${dashes[i]}; } .f${i} { fill: var(--s${i}); }`,
  ).join('\n');
}
