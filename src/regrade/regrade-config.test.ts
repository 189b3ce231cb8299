import { describe, expect, it } from 'vitest';
import { runInfo } from '../test-support/fixtures.js';
import { regradeConfig, type RegradeAsked } from './regrade-config.js';

const asked: RegradeAsked = { sourceDir: '/runs/a', reportsRoot: '/reports', toolVersion: '1.0.0', timeoutMs: 120_000, retries: 2 };

describe('regradeConfig', () => {
  const source = runInfo({
    suite: { name: 'faq', path: '/repo/faq.yaml', sha256: 'x' },
    load: { spec: { kind: 'arrivals', rate: 5, durationMs: 60_000, arrival: 'constant', mix: 'sequential', maxInFlight: 64 } } as never,
    options: { models: ['gpt-4o'], repeat: 3, requestDefaults: { plaintext: true }, baseUrl: 'https://kb.example', board: 'b', chat: 'c', graderUrl: 'http://g/v1', graderModel: 'g1', failOn: ['checks'] },
  });

  it('keeps the source\'s plan and target, replaces its load with one closed pass, and judges with the run\'s own suite by default', () => {
    const config = regradeConfig(source, asked);
    expect(config).toMatchObject({ suitePath: '/repo/faq.yaml', models: ['gpt-4o'], repeat: 3, requestDefaults: { plaintext: true }, baseUrl: 'https://kb.example', board: 'b', chat: 'c' });
    expect(config.load).toEqual({ spec: { kind: 'closed', concurrency: 4 } });
    expect(config).toMatchObject({ graderUrl: 'http://g/v1', graderModel: 'g1' });
    // The gates are this regrade's (its flags, else the defaults), not the source's.
    expect(config.failOn).toBeUndefined();
    // No cache unless this regrade names one (the CLI gives the default; --no-grader-cache none).
    expect(config.graderCacheDir).toBeUndefined();
    expect(regradeConfig(source, { ...asked, graderCacheDir: '/cache/kbbench' }).graderCacheDir).toBe('/cache/kbbench');
  });

  it('takes --suite, the grader flags as a whole, the gates and --out from the regrade', () => {
    const config = regradeConfig(source, { ...asked, suitePath: 'new.yaml', graderUrl: 'http://h/v1', graderModel: 'h2', failOn: ['checks', 'thresholds'], outDir: '/out' });
    expect(config.suitePath).toMatch(/\/new\.yaml$/);
    expect(config).toMatchObject({ graderUrl: 'http://h/v1', graderModel: 'h2', failOn: ['checks', 'thresholds'], outDir: '/out' });
    const modelOnly = regradeConfig(source, { ...asked, graderModel: 'h3' });
    expect(modelOnly.graderUrl).toBeUndefined();
    expect(modelOnly.graderModel).toBe('h3');
  });
});
