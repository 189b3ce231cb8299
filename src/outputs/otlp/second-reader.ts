// A MetricReader collected once per closed second (not on a timer): the output records a second, then
// collects, so each collection is exactly that second, stamped with the second's own wall-clock times.
import type { HrTime } from '@opentelemetry/api';
import { AggregationTemporality, DataPointType, InstrumentType, MetricReader } from '@opentelemetry/sdk-metrics';
import type { MetricData, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { TimelineLine } from '../../domain/timeline.js';

/** Counters cumulative; gauges DELTA (only this second's points: instruments.ts says why). */
function temporalityOf(type: InstrumentType): AggregationTemporality {
  return type === InstrumentType.GAUGE || type === InstrumentType.OBSERVABLE_GAUGE ? AggregationTemporality.DELTA : AggregationTemporality.CUMULATIVE;
}

export class SecondReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: temporalityOf });
  }

  /** Nothing buffered here: every collection is handed on by the caller. */
  protected override async onForceFlush(): Promise<void> {}

  protected override async onShutdown(): Promise<void> {}

  /** This second's metrics, with the times of the second rather than of the collection. */
  async collectSecond(line: TimelineLine): Promise<ResourceMetrics> {
    const { resourceMetrics } = await this.collect();
    return stampSecond(resourceMetrics, line);
  }
}

const hrTimeOfMs = (ms: number): HrTime => [Math.floor(ms / 1000), Math.round((ms % 1000) * 1e6)];

/**
 * The SDK stamps points with the collection's moment, a fraction of a second after the second closed
 * (the timeline's tick, plus any backlog). Points are restamped to the second itself, so shards line
 * up on whole seconds: counters from the run's start to the second's end, gauges over the second.
 * OTLP's time of a point is its interval's end, so a point is at t + 1 where the prometheus-rw
 * output (a sample is one instant) puts the same value at the second's start t.
 */
export function stampSecond(metrics: ResourceMetrics, line: TimelineLine): ResourceMetrics {
  const secondStartMs = line.t * 1000;
  const runStart = hrTimeOfMs(secondStartMs - line.offset_ms);
  const secondStart = hrTimeOfMs(secondStartMs);
  const secondEnd = hrTimeOfMs(secondStartMs + 1000);
  const stamp = (metric: MetricData): MetricData => {
    const startTime = metric.dataPointType === DataPointType.GAUGE ? secondStart : runStart;
    const dataPoints = metric.dataPoints.map((point) => ({ ...point, startTime, endTime: secondEnd }));
    return { ...metric, dataPoints } as MetricData;
  };
  return {
    resource: metrics.resource,
    scopeMetrics: metrics.scopeMetrics.map((scope) => ({ scope: scope.scope, metrics: scope.metrics.map(stamp) })),
  };
}

/** Data points in a collection (what an export "sends", for the output's report). */
export function pointsOf(metrics: ResourceMetrics): number {
  let points = 0;
  for (const scope of metrics.scopeMetrics) for (const metric of scope.metrics) points += metric.dataPoints.length;
  return points;
}
