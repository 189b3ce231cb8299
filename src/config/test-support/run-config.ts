// A RunConfig for unit tests: the defaults, a suite path, nothing sent anywhere; sections replaced whole or merged.
import { defaultRunConfig } from '../defaults.js';
import { parseRunConfig, type RunConfig } from '../run-config.js';

type SectionOverrides = { [K in keyof RunConfig]?: K extends 'load' ? RunConfig[K] : Partial<RunConfig[K]> };

export function testRunConfig(overrides: SectionOverrides = {}): RunConfig {
  const base = defaultRunConfig('s.yaml', 't');
  const config: RunConfig = { ...base, request: { ...base.request, timeoutMs: 1000, retries: 0 }, outputs: { reportsRoot: '/tmp' } };
  const merged: Record<string, unknown> = { ...config };
  for (const [key, value] of Object.entries(overrides)) {
    merged[key] = key === 'load' ? value : { ...(config as Record<string, object>)[key], ...(value as object) };
  }
  return parseRunConfig(merged);
}
