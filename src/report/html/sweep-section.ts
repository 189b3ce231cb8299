// report.html's sweep (--sweep N): each rate's latency percentiles, error rate and pass rate drawn
// against the rate it achieved, the highest rate that met every SLO marked, and the rates' table.
import type { SweepRateSummary, SweepSummary } from '../../domain/summary.js';
import { formatCount, formatMs, formatRate, formatTick } from '../format.js';
import { esc } from './escape.js';
import { perSecondWords } from '../load-words.js';
import { dashStyle, frame, legendOf, markLines, runsOf, type TimeMark, type TimeSeries } from './load-charts.js';
import { marker, pathOf, seriesIndex, svgFrame } from './chart-frame.js';

/** Lines over achieved rate (x): every rate a marker, the SLO's answer a vertical mark. */
export function rateChart(id: string, title: string, yTitle: string, series: readonly TimeSeries[], note: string, marks: readonly TimeMark[], format: (v: number) => string): string {
  const values = series.flatMap((s) => s.points.map(([, v]) => v).filter((v): v is number => v !== null));
  const maxX = Math.max(1, ...series.flatMap((s) => s.points.map(([t]) => t)), ...marks.map((m) => m.atS));
  const { x, y, grid } = frame(maxX, Math.max(1, ...values), yTitle, 'achieved starts per second');
  const body = [grid];
  for (const s of series) {
    const i = seriesIndex(s.slot);
    for (const run of runsOf(s.points)) body.push(`<path class="line s${i}"${dashStyle(s)} d="${pathOf(run.map(([t, v]) => [x(t), y(v)] as const))}"><title>${esc(s.label)}</title></path>`);
    for (const [t, v] of s.points) if (v !== null) body.push(marker(s.slot, x(t), y(v), `${s.label} at ${formatTick(t)} starts/s: ${format(v)}`));
  }
  body.push(markLines(marks, x));
  return `<figure class="card load-chart sweep-chart" id="${id}"><figcaption>${esc(title)}</figcaption>${svgFrame(title, body.join(''))}${legendOf(series)}<p class="note">${esc(note)}</p></figure>`;
}

function curve(label: string, slot: number, rates: readonly SweepRateSummary[], value: (r: SweepRateSummary) => number | null, dashed = false): TimeSeries {
  const points = rates.filter((r) => r.achieved_rate !== null).map((r): [number, number | null] => [r.achieved_rate!, value(r)]).sort((a, b) => a[0] - b[0]);
  return { label, slot, dashed, points };
}

function sweepTable(sweep: SweepSummary): string {
  const rows = sweep.rates.map((r) => {
    const best = sweep.slo_max_rate !== null && r.slo_pass === true && r.achieved_rate === sweep.slo_max_rate;
    const slo = r.slo_pass === null ? '–' : r.slo_pass ? '<span class="badge pass">met</span>' : `<span class="badge fail">missed</span> ${esc(r.slo_failed.join(', '))}`;
    return `<tr${best ? ' class="slo-max"' : ''}><th scope="row">${r.index + 1}${best ? ' ★' : ''}</th><td>${formatTick(r.target_rate)}</td><td>${r.achieved_rate === null ? '–' : formatTick(r.achieved_rate)}</td>`
      + `<td>${formatCount(r.starts)}</td><td>${formatCount(r.dropped)}</td><td>${formatRate(r.error_rate)}</td><td>${formatRate(r.pass_rate)}</td><td>${perSecondWords(r.throughput)}</td><td>${perSecondWords(r.goodput)}</td>`
      + `<td>${formatMs(r.ttfc_ms?.p95 ?? null)}</td><td>${formatMs(r.inter_chunk_ms?.p50 ?? null)}</td><td>${formatMs(r.inter_chunk_ms?.p95 ?? null)}</td><td>${formatCount(r.output_chars_per_s ?? null)}</td>`
      + `<td>${formatMs(r.latency_ms?.p50 ?? null)}</td><td>${formatMs(r.latency_ms?.p95 ?? null)}</td><td>${formatMs(r.latency_ms?.p99 ?? null)}</td><td>${slo}</td></tr>`;
  });
  // The probes first: closed loops, no target; their answers are warmup, out of the figures.
  const probeRow = (label: string, p: SweepSummary['probes']['sequential']): string =>
    `<tr class="probe"><th scope="row">${esc(label)} (${p.concurrency} worker${p.concurrency === 1 ? '' : 's'})</th><td>–</td><td>${formatTick(p.rate_per_s)}</td><td>${formatCount(p.starts)}</td>${'<td>–</td>'.repeat(13)}</tr>`;
  rows.unshift(probeRow('probe 1', sweep.probes.sequential), probeRow('probe 2', sweep.probes.saturation));
  const head = '<tr><th scope="col">Rate</th><th scope="col">Target, starts/s</th><th scope="col">Achieved, starts/s</th><th scope="col">Starts</th><th scope="col">Dropped</th><th scope="col">Error rate</th>'
    + '<th scope="col">Pass rate</th><th scope="col">Answers/s</th><th scope="col">Goodput/s</th><th scope="col">TTFC p95, ms</th><th scope="col">Inter-chunk p50, ms</th><th scope="col">Inter-chunk p95, ms</th><th scope="col">Output, chars/s</th><th scope="col">Latency p50, ms</th><th scope="col">p95</th><th scope="col">p99</th><th scope="col">SLO</th></tr>';
  return `<div class="table-scroll"><table id="sweep-table"><caption>Each rate of the sweep and its SLO verdict</caption><thead>${head}</thead><tbody>${rows.join('')}</tbody></table></div>`;
}

function answer(sweep: SweepSummary): string {
  const probes = `Probes: ${formatTick(sweep.probes.sequential_rate)} starts/s one at a time, ${formatTick(sweep.probes.saturation_rate)} starts/s at saturation (${sweep.probes.saturation.concurrency} workers); ${sweep.rates.length} rates of ${formatTick(sweep.rate_ms / 1000)} s between them.`;
  if (sweep.slo.length === 0) return `<p id="slo-max">${esc(probes)} No SLO was given (--slo), so no rate is picked.</p>`;
  const slos = esc(sweep.slo.join(', '));
  if (sweep.slo_max_rate === null) return `<p id="slo-max"><strong>No rate met every SLO</strong> (${slos}). ${esc(probes)}</p>`;
  const bound = sweep.slo_max_rate_is_lower_bound === true
    ? ' <strong>A lower bound:</strong> every rate met every SLO, so the limit lies higher; sweep higher rates to find it.'
    : '';
  return `<p id="slo-max"><strong>Highest rate meeting every SLO: ${formatTick(sweep.slo_max_rate)} starts/s</strong> (target ${formatTick(sweep.slo_max_target_rate ?? 0)}; ${slos}).${bound} ${esc(probes)}</p>`;
}

/** The sweep's part of the Load section; empty when the run was no sweep. */
export function renderSweep(sweep: SweepSummary | undefined): string {
  if (!sweep) return '';
  const rates = sweep.rates;
  const marks: TimeMark[] = [
    { atS: sweep.probes.sequential_rate, label: `probe 1: ${formatTick(sweep.probes.sequential_rate)}/s one at a time` },
    { atS: sweep.probes.saturation_rate, label: `probe 2: ${formatTick(sweep.probes.saturation_rate)}/s at saturation` },
    ...(sweep.slo_max_rate === null ? [] : [{ atS: sweep.slo_max_rate, label: `SLO max ${formatTick(sweep.slo_max_rate)}/s${sweep.slo_max_rate_is_lower_bound === true ? ' (a lower bound)' : ''}` }]),
  ];
  const latency = rateChart('sweep-latency', 'Sweep: latency percentiles against achieved rate', 'ms', [
    curve('TTFC p50', 0, rates, (r) => r.ttfc_ms?.p50 ?? null, true), curve('TTFC p95', 1, rates, (r) => r.ttfc_ms?.p95 ?? null, true),
    curve('latency p50', 0, rates, (r) => r.latency_ms?.p50 ?? null), curve('latency p95', 1, rates, (r) => r.latency_ms?.p95 ?? null),
    curve('latency p99', 3, rates, (r) => r.latency_ms?.p99 ?? null),
  ], 'Each point is one constant rate of the sweep, at the rate it achieved.', marks, (v) => `${formatMs(v)} ms`);
  const quality = rateChart('sweep-rates', 'Sweep: error rate and pass rate against achieved rate', 'share of requests', [
    curve('error rate', 5, rates, (r) => r.error_rate), curve('pass rate', 2, rates, (r) => r.pass_rate),
  ], 'Errors climb and answer quality falls where the service is past its capacity.', marks, (v) => formatRate(v));
  const output = rateChart('sweep-output', 'Sweep: output throughput and inter-chunk latency against achieved rate', 'chars/s · ms', [
    curve('output chars/s', 2, rates, (r) => r.output_chars_per_s ?? null), curve('inter-chunk p50, ms', 0, rates, (r) => r.inter_chunk_ms?.p50 ?? null, true),
    curve('inter-chunk p95, ms', 1, rates, (r) => r.inter_chunk_ms?.p95 ?? null, true),
  ], 'Answer characters per second (GuideLLM\'s output throughput, in characters), and the gap between chunks of each streamed answer (ITL).', marks, (v) => formatCount(v));
  return `<h3 id="sweep">Sweep</h3>${answer(sweep)}<div class="charts">${latency}${quality}${output}</div>${sweepTable(sweep)}`;
}
