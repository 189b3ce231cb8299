// A RunConfig for unit tests: the flags' defaults, a suite path, nothing sent anywhere.
import { askedLoad } from '../load-section.js';
import type { RunConfig } from '../run-config.js';

export function testRunConfig(overrides: Partial<RunConfig> = {}): RunConfig {
  return {
    suitePath: 's.yaml', auth: 'header', repeat: 1, load: askedLoad(), requestDefaults: {}, timeoutMs: 1000, retries: 0, reportsRoot: '/tmp',
    thresholdFlags: [], embedded: {}, toolVersion: 't', ...overrides,
  };
}
