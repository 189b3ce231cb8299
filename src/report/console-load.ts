// The console's load lines at the end of a run: the per-stage table (corrected latency, dropped
// starts), the knee, and a plain warning when the harness itself was the limit.
import type { StageSummary } from '../domain/load.js';
import type { Summary } from '../domain/summary.js';
import { formatCount, formatCredits, formatMs, formatRate, formatTick } from './format.js';
import { kneeWords } from './html/load-section.js';

const HEADERS = ['stage', 'target/s', 'starts', 'achieved/s', 'dropped', 'errors', 'pass rate', 'latency p95', 'corrected p50', 'corrected p95', 'corrected p99', 'credits/min'];

function stageRow(s: StageSummary, kneeIndex: number | null): string[] {
  const target = s.from_rate === s.to_rate ? formatTick(s.to_rate) : `${formatTick(s.from_rate)}→${formatTick(s.to_rate)}`;
  return [
    `${s.index + 1}${kneeIndex === s.index ? ' ◆' : ''}`, target, formatCount(s.starts), s.achieved_rate === null ? '–' : formatTick(s.achieved_rate),
    formatCount(s.dropped), formatRate(s.error_rate), formatRate(s.pass_rate), formatMs(s.latency_ms?.p95 ?? null),
    formatMs(s.corrected_latency_ms?.p50 ?? null), formatMs(s.corrected_latency_ms?.p95 ?? null), formatMs(s.corrected_latency_ms?.p99 ?? null),
    formatCredits(s.credits_per_min),
  ];
}

/** Lines for the end of the run (none for a closed loop with a quiet harness); `table` renders rows. */
export function renderConsoleLoad(summary: Summary, table: (headers: readonly string[], rows: readonly string[][]) => string): string {
  const parts: string[] = [];
  if (summary.stages && summary.stages.length > 0) {
    const knee = summary.knee ?? null;
    const kneeStage = knee ? (summary.stages.find((s) => knee.at_ms >= s.start_ms && knee.at_ms < s.end_ms)?.index ?? null) : null;
    parts.push(table(HEADERS, summary.stages.map((s) => stageRow(s, kneeStage))));
    if (knee) parts.push(`knee ◆ at ${kneeWords(knee)} (5 s window from ${formatTick(knee.at_ms / 1000)} s)`);
  }
  if (summary.harness?.saturated) {
    parts.push(['warning: the harness itself was saturated; some figures may be kbbench\'s limit, not the service\'s:', ...summary.harness.reasons.map((r) => `  - ${r}`)].join('\n'));
  }
  return parts.join('\n\n');
}
