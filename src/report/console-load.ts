// The console's load lines at the end of a run: the per-stage table (corrected latency, dropped
// starts, answers and goodput per second), the knee, goodput and its knee, and a plain warning when the harness itself was the limit.
import type { StageSummary } from '../domain/load.js';
import type { Summary, SweepRateSummary, SweepSummary } from '../domain/summary.js';
import { formatCount, formatCredits, formatMs, formatRate, formatTick } from './format.js';
import { byWorkers, goodputWords, kneeWords, perSecondWords, stageTarget } from './load-words.js';

const HEADERS = ['stage', 'target/s', 'starts', 'achieved/s', 'dropped', 'errors', 'pass rate', 'answers/s', 'goodput/s', 'latency p95 ms', 'corrected p50 ms', 'corrected p95 ms', 'corrected p99 ms', 'itl p95 ms', 'chars/s', 'credits/min'];

function stageRow(s: StageSummary, kneeIndex: number | null): string[] {
  const target = stageTarget(s, '→');
  return [
    `${s.index + 1}${kneeIndex === s.index ? ' ◆' : ''}`, target, formatCount(s.starts), s.achieved_rate === null ? '–' : formatTick(s.achieved_rate),
    formatCount(s.dropped), formatRate(s.error_rate), formatRate(s.pass_rate), perSecondWords(s.throughput), perSecondWords(s.goodput), formatMs(s.latency_ms?.p95 ?? null),
    formatMs(s.corrected_latency_ms?.p50 ?? null), formatMs(s.corrected_latency_ms?.p95 ?? null), formatMs(s.corrected_latency_ms?.p99 ?? null),
    formatMs(s.inter_chunk_ms?.p95 ?? null), formatCount(s.output_chars_per_s ?? null), formatCredits(s.credits_per_min),
  ];
}

const SWEEP_HEADERS = ['rate', 'target/s', 'achieved/s', 'starts', 'dropped', 'errors', 'pass rate', 'answers/s', 'goodput/s', 'ttfc p95 ms', 'itl p50 ms', 'itl p95 ms', 'chars/s', 'latency p50 ms', 'latency p95 ms', 'latency p99 ms', 'corrected p95 ms', 'SLO'];

function sweepRow(r: SweepRateSummary, max: SweepRateSummary | null): string[] {
  const slo = r.slo_pass === null ? '–' : r.slo_pass ? 'met' : `missed: ${r.slo_failed.join(', ') || 'no answer'}`;
  return [
    `${r.index + 1}${max?.index === r.index ? ' ★' : ''}`, formatTick(r.target_rate), r.achieved_rate === null ? '–' : formatTick(r.achieved_rate),
    formatCount(r.starts), formatCount(r.dropped), formatRate(r.error_rate), formatRate(r.pass_rate), perSecondWords(r.throughput), perSecondWords(r.goodput), formatMs(r.ttfc_ms?.p95 ?? null),
    formatMs(r.inter_chunk_ms?.p50 ?? null), formatMs(r.inter_chunk_ms?.p95 ?? null), formatCount(r.output_chars_per_s ?? null), formatMs(r.latency_ms?.p50 ?? null), formatMs(r.latency_ms?.p95 ?? null), formatMs(r.latency_ms?.p99 ?? null),
    formatMs(r.corrected_latency_ms?.p95 ?? null), slo,
  ];
}

/** A probe's row: a closed loop (no target), its achieved rate and starts; its answers are warmup, out of the figures. */
function probeRow(label: string, probe: SweepSummary['probes']['sequential']): string[] {
  return [`${label} (${probe.concurrency} worker${probe.concurrency === 1 ? '' : 's'})`, '–', formatTick(probe.rate_per_s), formatCount(probe.starts), ...SWEEP_HEADERS.slice(4).map(() => '–')];
}

/** Where a sweep's dropped starts lie: under its answer they fail the `dropped` gate, above it they are probing past capacity. */
function sweepDropWords(sweep: SweepSummary): string[] {
  const all = sweep.rates.reduce((sum, r) => sum + r.dropped + (r.dropped_late ?? 0), 0);
  const gated = sweep.dropped_gated ?? all;
  const words: string[] = [];
  if (gated > 0) words.push(`dropped: ${formatCount(gated)} starts in the rates at or below slo_max_rate — its answer rests on load that was not delivered as planned (gate dropped)`);
  if (all > gated) words.push(`dropped: ${formatCount(all - gated)} starts in rates ${sweep.slo_max_rate === null ? 'with no rate named by the SLOs' : 'above slo_max_rate'} (probing past capacity: reported, not failed)`);
  return words;
}

/** The sweep's table and its answer: the probes, each rate, and the highest rate meeting every SLO. */
function sweepLines(sweep: SweepSummary, table: (headers: readonly string[], rows: readonly string[][]) => string): string[] {
  const max = sweep.slo_max_rate === null ? null : (sweep.rates.find((r) => r.slo_pass === true && r.achieved_rate === sweep.slo_max_rate) ?? null);
  const probes = `sweep probes: one at a time ${formatTick(sweep.probes.sequential_rate)}/s, saturation ${formatTick(sweep.probes.saturation_rate)}/s (${sweep.probes.saturation.concurrency} workers)`;
  const answer = sweep.slo.length === 0
    ? 'slo_max_rate: – (no --slo given)'
    : sweep.slo_max_rate === null
      ? `slo_max_rate: none — no rate met every SLO (${sweep.slo.join(', ')})`
      : `slo_max_rate ★ ${formatTick(sweep.slo_max_rate)} starts/s (target ${formatTick(sweep.slo_max_target_rate ?? 0)}/s) met every SLO (${sweep.slo.join(', ')})` +
        (sweep.slo_max_rate_is_lower_bound === true
          ? ` — a lower bound: every rate met every SLO, so the limit lies higher (the saturation probe reached ${formatTick(sweep.probes.saturation_rate)}/s); sweep higher to find it`
          : '');
  const rows = [probeRow('probe 1', sweep.probes.sequential), probeRow(`probe 2`, sweep.probes.saturation), ...sweep.rates.map((r) => sweepRow(r, max))];
  return [probes, table(SWEEP_HEADERS, rows), answer, ...sweepDropWords(sweep)];
}

/** Lines for the end of the run (none for a closed loop with a quiet harness); `table` renders rows. */
export function renderConsoleLoad(summary: Summary, table: (headers: readonly string[], rows: readonly string[][]) => string): string {
  const parts: string[] = [];
  if (summary.sweep) parts.push(...sweepLines(summary.sweep, table));
  else if (summary.stages && summary.stages.length > 0) {
    const knee = summary.knee ?? null;
    const kneeStage = knee ? (summary.stages.find((s) => knee.at_ms >= s.start_ms && knee.at_ms < s.end_ms)?.index ?? null) : null;
    // A --concurrency-stages run's stages are workers, not a target rate.
    const headers = byWorkers(summary.stages) ? HEADERS.map((h) => (h === 'target/s' ? 'workers' : h)) : HEADERS;
    parts.push(table(headers, summary.stages.map((s) => stageRow(s, kneeStage))));
    if (knee) parts.push(`knee ◆ at ${kneeWords(knee)} (5 s window from ${formatTick(knee.at_ms / 1000)} s)`);
  }
  if (summary.sweep || (summary.stages && summary.stages.length > 0)) {
    const good = goodputWords(summary.totals, summary.goodput);
    if (good.length > 0) parts.push(good.join('\n'));
  }
  if (summary.harness?.saturated) {
    parts.push(['warning: the harness itself was saturated; some figures may be kbbench\'s limit, not the service\'s:', ...summary.harness.reasons.map((r) => `  - ${r}`)].join('\n'));
  }
  return parts.join('\n\n');
}
