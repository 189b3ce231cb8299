// report.html's goodput: good answers per second (within the SLOs, checks passed) beside all answers
// per second, against the offered load of each stage or sweep rate, the knee by goodput marked.
import type { Summary } from '../../domain/summary.js';
import { formatTick } from '../format.js';
import { goodputWords } from '../load-words.js';
import { esc } from './escape.js';
import type { TimeMark, TimeSeries } from './load-charts.js';
import { rateChart } from './sweep-section.js';

interface LoadLevel {
  achieved_rate: number | null;
  throughput?: number | null | undefined;
  goodput?: number | null | undefined;
}

function curve(label: string, slot: number, levels: readonly LoadLevel[], value: (l: LoadLevel) => number | null, dashed = false): TimeSeries {
  const points = levels.filter((l) => l.achieved_rate !== null).map((l): [number, number | null] => [l.achieved_rate!, value(l)]).sort((a, b) => a[0] - b[0]);
  return { label, slot, dashed, points };
}

/** The goodput card; empty when no stage or sweep rate has a goodput figure (a closed loop, an older run). */
export function renderGoodput(summary: Summary, judgeShare?: string): string {
  const levels: readonly LoadLevel[] = summary.sweep?.rates ?? summary.stages ?? [];
  if (!levels.some((l) => typeof l.goodput === 'number')) return '';
  const knee = summary.goodput?.knee ?? null;
  const marks: TimeMark[] = knee && knee.achieved_rate !== null ? [{ atS: knee.achieved_rate, label: `goodput knee ${formatTick(knee.achieved_rate)}/s` }] : [];
  const chart = rateChart('goodput-chart', 'Goodput against offered load', 'answers per second', [
    curve('answers/s', 0, levels, (l) => l.throughput ?? null, true),
    curve('goodput/s', 2, levels, (l) => l.goodput ?? null),
  ], `Each point is one ${summary.sweep ? 'rate of the sweep' : 'stage'}, at the rate it achieved: all answers per second (dashed) and the good ones (${summary.goodput?.definition ?? 'answers that passed their checks'}). Where the two part, the service still answers but no longer right or in time.`, marks, (v) => `${formatTick(v)}/s`);
  const words = goodputWords(summary.totals, summary.goodput, judgeShare).map((w) => `<p>${esc(w)}</p>`).join('');
  return `<div class="card" id="goodput">${words}<div class="charts">${chart}</div></div>`;
}
