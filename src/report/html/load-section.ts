// report.html's Load section: the run over time (target against achieved rate, in flight, answers
// and errors by kind, latency percentiles corrected and not), the per-stage table and the knee.
import type { KneeSummary, StageSummary } from '../../domain/load.js';
import type { Summary } from '../../domain/summary.js';
import type { LoadAnalysis, LoadPoint } from '../../metrics/load-analysis.js';
import { formatCount, formatCredits, formatMs, formatRate, formatTick } from '../format.js';
import { esc } from './escape.js';
import { byWorkers, KNEE_WORDS, kneeWords, perSecondWords, stageTarget } from '../load-words.js';
import { renderGoodput } from './goodput-section.js';
import { renderSweep } from './sweep-section.js';
import { stackedAreaChart, timeLineChart, timesOf, type TimeMark, type TimeSeries } from './load-charts.js';

function series(label: string, slot: number, points: readonly LoadPoint[], value: (p: LoadPoint) => number | null, dashed = false): TimeSeries {
  const times = timesOf(points);
  return { label, slot, dashed, points: points.map((p, k) => [times[k]!, value(p)]) };
}

function harnessNote(summary: Summary): string {
  const h = summary.harness;
  if (!h?.saturated) return '';
  const reasons = h.reasons.map((r) => `<li>${esc(r)}</li>`).join('');
  return `<div class="card harness-warning" role="note"><p><strong>The harness itself was saturated</strong>: some of what follows may be kbbench's limit, not the service's.</p><ul>${reasons}</ul></div>`;
}

function stageRow(s: StageSummary, knee: KneeSummary | null): string {
  const hasKnee = knee !== null && knee.at_ms >= s.start_ms && knee.at_ms < s.end_ms;
  const pct = (p: StageSummary['latency_ms'], k: 'p50' | 'p95' | 'p99'): string => formatMs(p?.[k] ?? null);
  const target = stageTarget(s);
  const mark = hasKnee ? ` <span class="badge fail" title="${esc(kneeWords(knee))}">◆ knee</span>` : '';
  return `<tr${hasKnee ? ' class="knee"' : ''}><th scope="row">${s.index + 1}${mark}</th><td>${target}</td><td>${formatCount(s.starts)}</td><td>${s.achieved_rate === null ? '–' : formatTick(s.achieved_rate)}</td>`
    + `<td>${formatCount(s.dropped)}</td><td>${formatRate(s.error_rate)}</td><td>${formatRate(s.pass_rate)}</td><td>${perSecondWords(s.throughput)}</td><td>${perSecondWords(s.goodput)}</td>`
    + `<td>${pct(s.ttfc_ms, 'p95')}</td><td>${pct(s.inter_chunk_ms ?? null, 'p50')}</td><td>${pct(s.inter_chunk_ms ?? null, 'p95')}</td><td>${pct(s.latency_ms, 'p50')}</td><td>${pct(s.latency_ms, 'p95')}</td><td>${pct(s.latency_ms, 'p99')}</td>`
    + `<td>${pct(s.corrected_latency_ms, 'p50')}</td><td>${pct(s.corrected_latency_ms, 'p95')}</td><td>${pct(s.corrected_latency_ms, 'p99')}</td>`
    + `<td>${formatCount(s.output_chars_per_s ?? null)}</td><td>${formatCredits(s.credits_per_min)}</td></tr>`;
}

function stageTable(stages: readonly StageSummary[], knee: KneeSummary | null): string {
  const head = `<tr><th scope="col" rowspan="2">Stage</th><th scope="col" rowspan="2">${byWorkers(stages) ? 'Workers' : 'Target, starts/s'}</th>`
    + '<th scope="col" rowspan="2">Starts</th><th scope="col" rowspan="2">Achieved, starts/s</th>'
    + '<th scope="col" rowspan="2">Dropped</th><th scope="col" rowspan="2">Error rate</th><th scope="col" rowspan="2">Pass rate</th><th scope="col" rowspan="2">Answers/s</th><th scope="col" rowspan="2">Goodput/s</th><th scope="col" rowspan="2">TTFC p95, ms</th><th scope="col" rowspan="2">Inter-chunk p50, ms</th><th scope="col" rowspan="2">Inter-chunk p95, ms</th>'
    + '<th scope="colgroup" colspan="3">Latency, ms</th><th scope="colgroup" colspan="3">Corrected latency, ms</th><th scope="col" rowspan="2">Output, chars/s</th><th scope="col" rowspan="2">Credits/min</th></tr>'
    + '<tr><th scope="col">p50</th><th scope="col">p95</th><th scope="col">p99</th><th scope="col">p50</th><th scope="col">p95</th><th scope="col">p99</th></tr>';
  return `<div class="table-scroll"><table id="stage-table"><caption>Per stage: answer quality (pass rate) beside speed and errors</caption><thead>${head}</thead><tbody>${stages.map((s) => stageRow(s, knee)).join('')}</tbody></table></div>`;
}

function kneeNote(summary: Summary): string {
  if (summary.stages === undefined) return '';
  const knee = summary.knee ?? null;
  if (!knee) return '<p class="note" id="knee">No knee in the rising part of the run: latency, errors and pass rate held (or the run had no ramp).</p>';
  const also = knee.reasons.length > 1 ? ` (also: ${knee.reasons.slice(1).map((r) => KNEE_WORDS[r]).join('; ')})` : '';
  return `<p id="knee"><strong>Knee at ${esc(kneeWords(knee))}</strong>${esc(also)}, in the 5 s window from ${formatTick(knee.at_ms / 1000)} s. p95 ${esc(knee.latency_metric)} ${formatMs(knee.p95_ms)} ms against ${formatMs(knee.baseline_p95_ms)} ms at first; error rate ${formatRate(knee.error_rate)}; pass rate ${formatRate(knee.pass_rate)} against ${formatRate(knee.baseline_pass_rate)}.</p>`;
}

/** The Load section's body; empty when the run has no timeline (and its results could not rebuild one). */
export function renderLoadSection(summary: Summary, load: LoadAnalysis | null | undefined): string {
  if (!load || load.series.length === 0) return '';
  const points = load.series;
  const marks: TimeMark[] = summary.knee ? [{ atS: summary.knee.at_ms / 1000, label: `knee ${formatTick(summary.knee.rate_per_s)}/s` }] : [];
  const hasTarget = points.some((p) => p.target_rate !== null);
  const rate = timeLineChart('Target and achieved rate, in flight', 'per second / in flight', [
    ...(hasTarget ? [series('target starts/s', 7, points, (p) => p.target_rate, true)] : []),
    series('achieved starts/s', 0, points, (p) => p.achieved_rate),
    series('completed requests/s', 2, points, (p) => p.completed_rate),
    ...(load.rebuilt ? [] : [series('in flight', 1, points, (p) => p.in_flight)]),
  ], 'Starts per second against the target; requests finished per second; units in flight at the end of each second.', marks);
  const kinds = [...new Set(points.flatMap((p) => Object.keys(p.errors)))].sort();
  const throughput = stackedAreaChart('Throughput and errors by kind', 'requests/s', [
    series('answers', 2, points, (p) => Math.max(0, p.completed_rate - Object.values(p.errors).reduce((a, b) => a + b, 0) / p.seconds)),
    ...kinds.map((kind, i) => series(kind, [1, 5, 3, 4, 6][i % 5]!, points, (p) => (p.errors[kind] ?? 0) / p.seconds)),
  ], 'Requests finished per second, stacked: answers at the bottom, each kind of error on top.', marks);
  const hasCorrected = points.some((p) => p.corrected_p95_ms !== null);
  const latency = timeLineChart('Latency percentiles over time', 'ms', [
    series('p50', 0, points, (p) => p.latency_p50_ms), series('p95', 1, points, (p) => p.latency_p95_ms), series('p99', 3, points, (p) => p.latency_p99_ms),
    ...(hasCorrected ? [
      series('p50 corrected', 0, points, (p) => p.corrected_p50_ms, true), series('p95 corrected', 1, points, (p) => p.corrected_p95_ms, true),
      series('p99 corrected', 3, points, (p) => p.corrected_p99_ms, true),
    ] : []),
    ...(points.some((p) => p.in_flight_oldest_ms !== null) ? [series('oldest in flight', 5, points, (p) => p.in_flight_oldest_ms, true)] : []),
  ], 'Answers finished in each second. Corrected latency (dashed) runs from the intended start: a stall the uncorrected line hides shows in it, and so does the oldest request still in flight while it waits.', marks);
  const streaming = points.some((p) => p.ttfc_p95_ms !== null || p.itl_p95_ms !== null)
    ? timeLineChart('TTFC and inter-chunk latency over time', 'ms', [
      series('TTFC p50', 0, points, (p) => p.ttfc_p50_ms), series('TTFC p95', 1, points, (p) => p.ttfc_p95_ms),
      series('inter-chunk p50', 0, points, (p) => p.itl_p50_ms, true), series('inter-chunk p95', 1, points, (p) => p.itl_p95_ms, true),
    ], 'Time to the first chunk, and the mean gap between chunks of each streamed answer (GuideLLM\'s ITL), for answers finished in each second.', marks)
    : '';
  const rebuilt = load.rebuilt ? '<p class="note">Rebuilt from results.ndjson (timeline.ndjson is missing): no in-flight counts, dropped starts or loop delay.</p>' : '';
  const stages = summary.stages ? stageTable(summary.stages, summary.knee ?? null) : '';
  // A sweep's stages are its rates: the sweep's table shows them beside their SLO verdicts.
  if (summary.sweep) return `${harnessNote(summary)}${rebuilt}${renderSweep(summary.sweep)}${renderGoodput(summary)}<div class="charts">${rate}${throughput}${latency}${streaming}</div>`;
  return `${harnessNote(summary)}${rebuilt}${kneeNote(summary)}${renderGoodput(summary)}<div class="charts">${rate}${throughput}${latency}${streaming}</div>${stages}`;
}

/** The Load section's own styles (appended to the page's). */
export const LOAD_STYLES = `
svg .area { stroke: none; opacity: .8; }
svg .knee-mark { stroke: var(--fail); stroke-width: 1.5; stroke-dasharray: 4 3; }
svg .knee-label { fill: var(--fail); font-size: 11px; }
#stage-table tr.knee { background: var(--fail-bg); }
#sweep-table tr.slo-max { background: var(--pass-bg); }
#sweep-table td, #sweep-table th { white-space: nowrap; padding: .4rem .45rem; }
#stage-table td, #stage-table th { white-space: nowrap; padding: .4rem .45rem; }
.harness-warning { border-left: 4px solid var(--error); }
`;
