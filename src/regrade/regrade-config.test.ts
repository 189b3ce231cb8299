import { RecordedRunConfigSchema } from '../domain/run-config.js';
import { describe, expect, it } from 'vitest';
import { runInfo } from '../test-support/fixtures.js';
import { regradeConfig, type RegradeAsked } from './regrade-config.js';

const asked: RegradeAsked = { sourceDir: '/runs/a', reportsRoot: '/reports', toolVersion: '1.0.0', timeoutMs: 120_000, retries: 2 };

describe('regradeConfig', () => {
  const source = runInfo({
    suite: { name: 'faq', path: '/repo/faq.yaml', sha256: 'x' },
    load: { spec: { kind: 'arrivals', rate: 5, durationMs: 60_000, arrival: 'constant', mix: 'sequential', maxInFlight: 64 } } as never,
    config: RecordedRunConfigSchema.parse({
      plan: { models: ['gpt-4o'], repeat: 3 }, request: { requestDefaults: { plaintext: true } }, target: { baseUrl: 'https://kb.example', board: 'b', chat: 'c' },
      grader: { url: 'http://g/v1', model: 'g1' }, gates: { failOn: ['checks'] },
    }),
  });

  it('keeps the source\'s plan and target, replaces its load with one closed pass, and judges with the run\'s own suite by default', () => {
    const config = regradeConfig(source, asked);
    expect(config).toMatchObject({ plan: { suitePath: '/repo/faq.yaml', models: ['gpt-4o'], repeat: 3 }, request: { requestDefaults: { plaintext: true } }, target: { baseUrl: 'https://kb.example', board: 'b', chat: 'c' } });
    expect(config.load).toEqual({ spec: { kind: 'closed', concurrency: 4 } });
    expect(config.grader).toMatchObject({ url: 'http://g/v1', model: 'g1' });
    // The gates are this regrade's (its flags, else the defaults), not the source's.
    expect(config.gates.failOn).toBeUndefined();
    // No cache unless this regrade names one (the CLI gives the default; --no-grader-cache none).
    expect(config.grader.cacheDir).toBeUndefined();
    expect(regradeConfig(source, { ...asked, graderCacheDir: '/cache/kbbench' }).grader.cacheDir).toBe('/cache/kbbench');
  });

  it('takes --suite, the grader flags as a whole, the gates and --out from the regrade', () => {
    const config = regradeConfig(source, { ...asked, suitePath: 'new.yaml', graderUrl: 'http://h/v1', graderModel: 'h2', failOn: ['checks', 'thresholds'], outDir: '/out' });
    expect(config.plan.suitePath).toMatch(/\/new\.yaml$/);
    expect(config).toMatchObject({ grader: { url: 'http://h/v1', model: 'h2' }, gates: { failOn: ['checks', 'thresholds'] }, outputs: { outDir: '/out' } });
    const modelOnly = regradeConfig(source, { ...asked, graderModel: 'h3' });
    expect(modelOnly.grader.url).toBeUndefined();
    expect(modelOnly.grader.model).toBe('h3');
  });
});
