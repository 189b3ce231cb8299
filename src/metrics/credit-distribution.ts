// Credits per request as a distribution (for thresholds such as credits_used p(95)): HDR plus exact tallies.
import { fromUnits } from '../credits/units.js';
import { createHistogram, HIGHEST_TRACKABLE_US, type Histogram, type MetricReadout } from './histogram.js';

export interface CreditDistribution {
  /** Records one request's credits in integer 1e-5 units (answer plus checks). */
  recordUnits(units: number): void;
  /** null until a request is recorded. */
  readout(): MetricReadout | null;
}

/**
 * Integer 1e-5 units go into the project's one HDR configuration (its range, 0 to 3.6e9 units,
 * is 36,000 credits a request); count, sum, min and max are kept exactly beside it, so a sum of
 * 100,000 requests is exact to the last decimal. The histogram is allocated at the first value.
 */
export function createCreditDistribution(): CreditDistribution {
  let histogram: Histogram | null = null;
  let count = 0;
  let sumUnits = 0;
  let minUnits = Number.POSITIVE_INFINITY;
  let maxUnits = 0;

  const recordUnits = (units: number): void => {
    const value = Math.min(HIGHEST_TRACKABLE_US, Math.max(0, Math.round(units)));
    histogram ??= createHistogram();
    histogram.recordValue(value);
    count++;
    sumUnits += value;
    minUnits = Math.min(minUnits, value);
    maxUnits = Math.max(maxUnits, value);
  };

  const readout = (): MetricReadout | null => {
    if (histogram === null || count === 0) return null;
    const h = histogram;
    return {
      count,
      sum: fromUnits(sumUnits),
      min: fromUnits(minUnits),
      max: fromUnits(maxUnits),
      mean: fromUnits(sumUnits) / count,
      percentile: (p) => fromUnits(Math.min(maxUnits, h.getValueAtPercentile(p))),
    };
  };

  return { recordUnits, readout };
}
