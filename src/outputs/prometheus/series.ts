// A closed second as Prometheus series (the naming conventions: prefix kbbench_, base unit seconds,
// counters cumulative and named _total). Counters carry the run's totals up to the second, so a
// dropped batch loses no count: the next one carries it. Each series has one sample per second,
// stamped with the second's start (timeline.ndjson's `t`).
import { fromUnits } from '../../credits/units.js';
import type { IntervalPercentiles, IntervalTiming } from '../../domain/timeline.js';
import type { ClosedSecond, OutputContext } from '../output.js';
import type { PromLabel, PromSeries } from './remote-write.js';

/** The metric names (docs/live-metrics.md lists them; the Grafana dashboard queries them). */
export const PROM_METRICS = {
  requests: 'kbbench_requests_total',
  credits: 'kbbench_credits_used_total',
  starts: 'kbbench_starts_total',
  dropped: 'kbbench_dropped_starts_total',
  errors: 'kbbench_errors_total',
  rateLimited: 'kbbench_rate_limited_total',
  checksPassed: 'kbbench_checks_passed_total',
  checksFailed: 'kbbench_checks_failed_total',
  // Goodput (metrics/goodput.ts): answers within the SLOs that passed their checks; rate() of it is good answers per second.
  goodAnswers: 'kbbench_good_answers_total',
  inFlight: 'kbbench_in_flight',
  inFlightMax: 'kbbench_in_flight_max',
  held: 'kbbench_held_starts',
  targetRate: 'kbbench_target_rate',
  loopDelay: 'kbbench_loop_delay_p99_seconds',
  ttfc: 'kbbench_ttfc_seconds',
  latency: 'kbbench_latency_seconds',
  correctedLatency: 'kbbench_corrected_latency_seconds',
  interChunk: 'kbbench_inter_chunk_seconds',
} as const;

const QUANTILES: ReadonlyArray<[keyof Pick<IntervalPercentiles, 'p50' | 'p95' | 'p99'>, string]> = [['p50', '0.5'], ['p95', '0.95'], ['p99', '0.99']];

const TIMINGS: ReadonlyArray<[IntervalTiming, string]> = [
  ['ttfc_ms', PROM_METRICS.ttfc], ['latency_ms', PROM_METRICS.latency],
  ['corrected_latency_ms', PROM_METRICS.correctedLatency], ['inter_chunk_ms', PROM_METRICS.interChunk],
];

export class PromSeriesBuilder {
  /** Cumulative counters by series key (name and extra labels): as many as models × outcomes, error kinds. */
  private readonly counters = new Map<string, { name: string; extra: Record<string, string>; value: number }>();
  private readonly base: Record<string, string>;

  constructor(ctx: OutputContext) {
    this.base = { run_id: ctx.runId, suite: ctx.suite, shard: ctx.shard };
    // Every model's ok count exists from the first second, so rate() has a start point.
    for (const model of ctx.models) {
      this.add(PROM_METRICS.requests, { model, outcome: 'ok' }, 0);
      this.add(PROM_METRICS.credits, { model }, 0);
    }
    for (const name of [PROM_METRICS.starts, PROM_METRICS.dropped, PROM_METRICS.rateLimited, PROM_METRICS.checksPassed, PROM_METRICS.checksFailed, PROM_METRICS.goodAnswers]) this.add(name, {}, 0);
  }

  /** The series of one closed second (counters as totals up to its end). */
  of(second: ClosedSecond): PromSeries[] {
    const { line } = second;
    for (const [model, tally] of Object.entries(second.models)) {
      for (const [outcome, n] of Object.entries(tally.outcomes)) this.add(PROM_METRICS.requests, { model, outcome }, n);
      this.add(PROM_METRICS.credits, { model }, tally.credit_units);
    }
    for (const [kind, n] of Object.entries(line.errors)) this.add(PROM_METRICS.errors, { kind }, n);
    this.add(PROM_METRICS.starts, {}, line.starts);
    this.add(PROM_METRICS.dropped, {}, line.dropped);
    this.add(PROM_METRICS.rateLimited, {}, line.status_429);
    this.add(PROM_METRICS.checksPassed, {}, line.passed);
    this.add(PROM_METRICS.checksFailed, {}, line.failed);
    this.add(PROM_METRICS.goodAnswers, {}, line.good ?? 0);
    const timestamp = line.t * 1000;
    const series: PromSeries[] = [];
    const push = (name: string, extra: Record<string, string>, value: number): void => {
      series.push({ labels: this.labels(name, extra), samples: [{ value, timestamp }] });
    };
    for (const c of this.counters.values()) push(c.name, c.extra, c.name === PROM_METRICS.credits ? fromUnits(c.value) : c.value);
    push(PROM_METRICS.inFlight, {}, line.in_flight);
    push(PROM_METRICS.inFlightMax, {}, line.in_flight_max);
    if (line.held !== undefined) push(PROM_METRICS.held, {}, line.held);
    if (line.target_rate !== null) push(PROM_METRICS.targetRate, {}, line.target_rate);
    if (line.loop_delay_p99_ms !== null) push(PROM_METRICS.loopDelay, {}, secondsOf(line.loop_delay_p99_ms));
    for (const [timing, name] of TIMINGS) {
      const p = line[timing];
      if (p === null) continue;
      for (const [key, quantile] of QUANTILES) push(name, { quantile }, secondsOf(p[key]));
    }
    return series;
  }

  private add(name: string, extra: Record<string, string>, n: number): void {
    const key = `${name}\u0000${JSON.stringify(extra)}`;
    const counter = this.counters.get(key);
    if (counter) counter.value += n;
    else this.counters.set(key, { name, extra, value: n });
  }

  private labels(name: string, extra: Record<string, string>): PromLabel[] {
    const all: Record<string, string> = { __name__: name, ...this.base, ...extra };
    return Object.keys(all).sort().map((key) => ({ name: key, value: all[key]! }));
  }
}

/** ms to seconds, exactly to the microsecond (123.4 ms is 0.1234, not 0.12340000000000001). */
const secondsOf = (ms: number): number => Math.round(ms * 1000) / 1e6;
