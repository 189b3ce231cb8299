// The OpenTelemetry instruments of the `otlp` output, and how one closed second is recorded into them.
//
// The data model, and why (the OTel metrics data model offers three shapes for what a second holds):
// - Counts (requests by model and outcome, starts, dropped starts, credits) are monotonic Sums with
//   CUMULATIVE temporality: each export carries the run's totals so far, so an export the endpoint
//   lost, or the bounded queue dropped, loses no count (the next one carries it), and a Prometheus
//   behind a collector reads them as the `_total` counters the prometheus-rw output writes.
// - In flight and the second's TTFC/latency p50/p95/p99 are Gauges (`quantile` attribute). Not
//   exponential histograms: the timeline already holds each second's exact HDR percentiles, and a
//   gauge carries them unchanged, so OTLP and Prometheus show the same numbers to the millisecond;
//   an exponential histogram would re-bucket every value (its relative error set by its scale), and
//   most backends turn one into Prometheus only as a native histogram. Gauges are collected with
//   DELTA temporality, which for a last-value aggregation means "only what was recorded since the
//   last collection": a second without answers sends no TTFC point instead of repeating an old one.
import type { Attributes, Gauge, Meter, ObservableResult } from '@opentelemetry/api';
import { ValueType } from '@opentelemetry/api';
import { fromUnits } from '../../credits/units.js';
import type { ClosedSecond, OutputContext } from '../output.js';
import { METRIC_NAMES, QUANTILES } from './names.js';

/** The run's labels, on every point (a distributed run is one picture by them, as in Prometheus). */
export function runAttributes(ctx: OutputContext): Attributes {
  return { run_id: ctx.runId, suite: ctx.suite, shard: ctx.shard };
}

export interface SecondInstruments {
  /** Series exist from the first export: every model of the plan at zero. */
  start(): void;
  /** Adds one closed second's counts and records its gauges (collect right after, before the next). */
  record(second: ClosedSecond): void;
}

export function createInstruments(meter: Meter, ctx: OutputContext): SecondInstruments {
  const run = runAttributes(ctx);
  const int = { valueType: ValueType.INT };
  const requests = meter.createCounter(METRIC_NAMES.requests, { description: 'Result lines by model and outcome', unit: '{request}', ...int });
  const starts = meter.createCounter(METRIC_NAMES.starts, { description: 'Units handed to the runner (a thread is one start)', unit: '{start}', ...int });
  const dropped = meter.createCounter(METRIC_NAMES.droppedStarts, { description: 'Open-loop starts that could not be sent', unit: '{start}', ...int });
  const inFlight = meter.createGauge(METRIC_NAMES.inFlight, { description: 'Units in flight at the end of the second', unit: '{request}', ...int });
  const ttfc = meter.createGauge(METRIC_NAMES.ttfc, { description: 'Time to first content chunk: percentiles of the second', unit: 's' });
  const latency = meter.createGauge(METRIC_NAMES.latency, { description: 'Latency: percentiles of the second', unit: 's' });
  const corrected = meter.createGauge(METRIC_NAMES.correctedLatency, { description: 'Latency from the intended start (open loop): percentiles of the second', unit: 's' });
  // Credits are summed here in exact 1e-5 units and observed as a total: adding each second's
  // float to an SDK counter would drift over a long run (credits/units.ts says why).
  const creditUnits = new Map<string, number>();
  meter.createObservableCounter(METRIC_NAMES.credits, { description: 'Credits spent, answers and their checks', unit: '{credit}' })
    .addCallback((result: ObservableResult) => {
      for (const [model, units] of creditUnits) result.observe(fromUnits(units), { ...run, model });
    });

  return {
    start(): void {
      for (const model of ctx.models) {
        requests.add(0, { ...run, model, outcome: 'ok' });
        creditUnits.set(model, creditUnits.get(model) ?? 0);
      }
      starts.add(0, run);
      dropped.add(0, run);
    },
    record({ line, models }: ClosedSecond): void {
      for (const [model, tally] of Object.entries(models)) {
        for (const [outcome, count] of Object.entries(tally.outcomes)) requests.add(count, { ...run, model, outcome });
        creditUnits.set(model, (creditUnits.get(model) ?? 0) + tally.credit_units);
      }
      starts.add(line.starts, run);
      dropped.add(line.dropped, run);
      inFlight.record(line.in_flight, run);
      recordQuantiles(ttfc, line.ttfc_ms, run);
      recordQuantiles(latency, line.latency_ms, run);
      recordQuantiles(corrected, line.corrected_latency_ms, run);
    },
  };
}

function recordQuantiles(gauge: Gauge, percentiles: ClosedSecond['line']['ttfc_ms'], run: Attributes): void {
  if (percentiles === null || percentiles.count === 0) return;
  for (const [quantile, key] of QUANTILES) gauge.record(percentiles[key] / 1000, { ...run, quantile });
}
