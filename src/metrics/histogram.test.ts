// Checks the HDR configuration: percentiles within 3 significant digits of exact ones, exact merges.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeHistogramFile, mergeHistogramFiles } from './histogram-file.js';
import {
  binCountsMs, createHistogram, createTally, encodeHistogram, msToUs, percentileCurveMs, percentilesMs, recordMs, valueAtPercentileMs,
} from './histogram.js';

/** Nearest rank, as HdrHistogram defines a percentile: the ceil(p/100 · n)-th smallest value. */
function exactPercentileMs(sortedUs: number[], percentile: number): number {
  const rank = Math.max(1, Math.ceil((percentile / 100) * sortedUs.length));
  return sortedUs[rank - 1]! / 1000;
}

const durationsMs = fc.array(fc.double({ min: 0, max: 600_000, noNaN: true }), { minLength: 1, maxLength: 400 });
const PERCENTILES = [0.5, 25, 50, 90, 95, 99, 99.9, 100];

describe('the HDR histogram configuration', () => {
  it('reports percentiles within 3 significant digits of the exact ones', () => {
    fc.assert(
      fc.property(durationsMs, (values) => {
        const histogram = createHistogram();
        for (const ms of values) recordMs(histogram, ms);
        const sortedUs = values.map(msToUs).sort((a, b) => a - b);
        for (const p of PERCENTILES) {
          const exact = exactPercentileMs(sortedUs, p);
          const hdr = valueAtPercentileMs(histogram, p);
          // HDR answers with the top of the value's bucket: never below, at most 1/1024 above.
          expect(hdr).toBeGreaterThanOrEqual(exact - 0.0005);
          expect(hdr).toBeLessThanOrEqual(exact * (1 + 1 / 1024) + 0.0015);
        }
        const exactMean = sortedUs.reduce((a, b) => a + b, 0) / sortedUs.length / 1000;
        expect(Math.abs(percentilesMs(histogram)!.mean - exactMean)).toBeLessThanOrEqual(exactMean / 1000 + 0.002);
      }),
      { numRuns: 60 },
    );
  });

  it('with its exact tally: the max is a measured value, the mean exact, no percentile above the max', () => {
    fc.assert(
      fc.property(durationsMs, (values) => {
        const histogram = createHistogram();
        const tally = createTally();
        for (const ms of values) recordMs(histogram, ms, tally);
        const sortedUs = values.map(msToUs).sort((a, b) => a - b);
        const stats = percentilesMs(histogram, tally)!;
        expect(stats.max).toBe(sortedUs.at(-1)! / 1000);
        expect(stats.mean).toBe(Math.round(sortedUs.reduce((a, b) => a + b, 0) / sortedUs.length) / 1000);
        for (const p of [stats.p50, stats.p90, stats.p95, stats.p99, stats.p999]) expect(p).toBeLessThanOrEqual(stats.max);
        expect(stats.p50).toBeGreaterThanOrEqual(exactPercentileMs(sortedUs, 50) - 0.0005);
      }),
      { numRuns: 60 },
    );
    // The demo's gpt-4o-mini latencies: HDR alone said max 38.559 where the slowest answer took 38.548.
    const h = createHistogram();
    const tally = createTally();
    recordMs(h, 38.548, tally);
    recordMs(h, 12.5, tally);
    expect(percentilesMs(h)!.max).toBe(38.559);
    expect(percentilesMs(h, tally)).toMatchObject({ max: 38.548, p99: 38.548, mean: 25.524 });
  });

  it('merges two encoded histograms into exactly the histogram of the union', () => {
    fc.assert(
      fc.property(durationsMs, durationsMs, (a, b) => {
        const encode = (values: number[]) => {
          const h = createHistogram();
          values.forEach((ms) => recordMs(h, ms));
          return encodeHistogram(h);
        };
        const merged = decodeHistogramFile(mergeHistogramFiles([{ m: { latency_ms: encode(a) } }, { m: { latency_ms: encode(b) } }]));
        const union = createHistogram();
        [...a, ...b].forEach((ms) => recordMs(union, ms));
        const histogram = merged.get('m')!.get('latency_ms')!;
        expect(histogram.totalCount).toBe(union.totalCount);
        for (const p of [0, ...PERCENTILES, 33.3, 75, 99.99]) {
          expect(valueAtPercentileMs(histogram, p)).toBe(valueAtPercentileMs(union, p));
        }
        expect(percentilesMs(histogram)).toEqual(percentilesMs(union));
      }),
      { numRuns: 25 },
    );
  });

  it('keeps models and metrics apart when merging files', () => {
    const h = createHistogram();
    recordMs(h, 12.5);
    const merged = mergeHistogramFiles([{ a: { ttfc_ms: encodeHistogram(h) } }, { b: { latency_ms: encodeHistogram(h) } }, { a: { ttfc_ms: encodeHistogram(h) } }]);
    expect(Object.keys(merged).sort()).toEqual(['a', 'b']);
    const decoded = decodeHistogramFile(merged);
    expect(decoded.get('a')!.get('ttfc_ms')!.totalCount).toBe(2);
    expect(decoded.get('b')!.get('latency_ms')!.totalCount).toBe(1);
  });

  it('records ms as integer µs, at least 1, ignoring what was not measured, clamping past an hour', () => {
    const h = createHistogram();
    recordMs(h, null);
    recordMs(h, Number.NaN);
    recordMs(h, -3);
    expect(h.totalCount).toBe(0);
    expect(percentilesMs(h)).toBeNull();
    recordMs(h, 0);
    recordMs(h, 5 * 3_600_000);
    expect(h.totalCount).toBe(2);
    expect(valueAtPercentileMs(h, 0)).toBe(0.001);
    expect(valueAtPercentileMs(h, 100)).toBeGreaterThanOrEqual(3_600_000);
  });

  it('draws a percentile curve ending at the max and bins every value', () => {
    const h = createHistogram();
    for (let i = 1; i <= 1000; i++) recordMs(h, i);
    const curve = percentileCurveMs(h);
    expect(curve[0]![0]).toBe(0);
    expect(curve.at(-1)).toEqual([100, valueAtPercentileMs(h, 100)]);
    expect(curve.map(([p]) => p)).toEqual(expect.arrayContaining([50, 90, 99]));
    const counts = binCountsMs(h, [0.5, 10, 100, 2000]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1000);
    expect(counts[0]).toBe(9);
  });
});
