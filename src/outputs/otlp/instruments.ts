// The OpenTelemetry instruments of the `otlp` output: one per metric of the prometheus-rw output, fed
// by that output's own series builder, so both outputs send the same names, labels and values.
//
// The data model, and why (the OTel metrics data model offers three shapes for what a second holds):
// - Counts (`*_total`: requests by model and outcome, starts, dropped starts, errors by kind, credits,
//   …) are ObservableCounters, i.e. monotonic Sums with CUMULATIVE temporality: each export carries
//   the run's totals so far (kept exactly by the builder, credits in 1e-5 units), so an export the
//   endpoint lost, or the bounded queue dropped, loses no count: the next one carries it. Behind a
//   collector or Prometheus's OTLP receiver they are the same `_total` counters rate() reads.
// - In flight, the target rate and the second's TTFC/latency/corrected-latency p50/p95/p99 are
//   ObservableGauges (`quantile` attribute). Not exponential histograms: the timeline already holds
//   each second's exact HDR percentiles, and a gauge carries them unchanged, so OTLP and Prometheus
//   show the same numbers to the millisecond; an exponential histogram would re-bucket every value
//   (its relative error set by its scale), and most backends take one into Prometheus only as a
//   native histogram. Gauges are collected with DELTA temporality, which for a last value means "only
//   what was observed in this collection": a second without answers sends no TTFC point instead of
//   repeating an old one (second-reader.ts).
import type { Attributes, Meter, Observable } from '@opentelemetry/api';
import type { ClosedSecond, OutputContext } from '../output.js';
import { PROM_METRICS, PromSeriesBuilder } from '../prometheus/series.js';
import type { PromSeries } from '../prometheus/remote-write.js';

export interface SecondInstruments {
  /** Takes one closed second; the next collection observes exactly it (collect before the next). */
  record(second: ClosedSecond): void;
}

/** OTel units (UCUM): seconds for `_seconds`, an annotation for the rest (which Prometheus ignores). */
export function unitOf(name: string): string {
  if (name.endsWith('_seconds')) return 's';
  if (name.includes('credits')) return '{credit}';
  if (name.includes('good_answers')) return '{answer}';
  return name.includes('starts') || name.includes('rate') ? '{start}' : '{request}';
}

export function createInstruments(meter: Meter, ctx: OutputContext): SecondInstruments {
  const builder = new PromSeriesBuilder(ctx);
  const instruments = new Map<string, Observable>();
  for (const name of Object.values(PROM_METRICS)) {
    const options = { unit: unitOf(name) };
    instruments.set(name, name.endsWith('_total') ? meter.createObservableCounter(name, options) : meter.createObservableGauge(name, options));
  }
  let current: PromSeries[] = [];
  meter.addBatchObservableCallback((result) => {
    for (const series of current) {
      const { name, attributes } = split(series);
      const instrument = instruments.get(name);
      const sample = series.samples[0];
      if (instrument !== undefined && sample !== undefined) result.observe(instrument, sample.value, attributes);
    }
  }, [...instruments.values()]);
  return {
    record(second: ClosedSecond): void {
      current = builder.of(second);
    },
  };
}

/** A Prometheus series' labels as the metric name and the point's attributes (run_id, suite, shard, …). */
function split(series: PromSeries): { name: string; attributes: Attributes } {
  let name = '';
  const attributes: Attributes = {};
  for (const label of series.labels) {
    if (label.name === '__name__') name = label.value;
    else attributes[label.name] = label.value;
  }
  return { name, attributes };
}
