import { describe, expect, it } from 'vitest';
import { adviceFor } from './estimate.js';

const sample = (size: string) => ({ run_dir: 'r', status: 'completed', requests: 1, planned_requests: 2, size, per_model: {} });
const forecastFor = { requests: 10, repeat: 1, shard: null, volume: null, load_not_counted: null };

describe('estimate advice never suggests a smaller sample (issue 33, item 5)', () => {
  it('after --sample 30% it asks for 60%, not 20%', () => {
    expect(adviceFor({ sample: sample('30% of the distinct items'), from: null, forecast_for: forecastFor })).toBe('a larger sample (--sample 60%) narrows it');
    expect(adviceFor({ sample: sample('5 requests per model'), from: null, forecast_for: forecastFor })).toBe('a larger sample (--sample 10) narrows it');
    expect(adviceFor({ sample: sample('100% of the distinct items'), from: null, forecast_for: forecastFor })).toBeNull();
  });
});
