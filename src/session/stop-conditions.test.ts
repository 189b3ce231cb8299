import { describe, expect, it } from 'vitest';
import type { Sample } from '../domain/sample.js';
import { sample as fixture } from '../test-support/fixtures.js';
import { createStopConditions } from './stop-conditions.js';

const sample = (outcome: Sample['outcome'], latencyMs = 100): Sample => fixture({ outcome, latencyMs, pass: outcome === 'ok' });

describe('stop conditions', () => {
  it('none asked: only an unreachable target stops the run (a window whose every result failed to connect)', () => {
    const c = createStopConditions({ thresholdAborts: [] }, 0)!;
    const refused = (): Sample => ({ ...sample('network_error'), status: null, chunks: 0, error: { code: 'E_CONNECTION', message: 'ECONNREFUSED' } });
    for (let i = 0; i < 50; i += 1) expect(c.observe(sample('http_error'), i * 100)).toBeNull(); // errors, but answered
    expect(c.observe(sample('ok'), 5000)).toBeNull();
    // Nine refusals within the window: not yet; then a window with no connection at all.
    for (let i = 1; i <= 9; i += 1) expect(c.observe(refused(), 5000 + i * 100)).toBeNull();
    expect(c.observe(refused(), 14_000)).toBeNull(); // ten, but the last connection is within 10 s
    expect(c.observe(refused(), 15_100)).toMatchObject({ by: 'unreachable' });
  });

  it('--max-errors stops at the N-th failed request, once', () => {
    const c = createStopConditions({ maxErrors: 3, thresholdAborts: [] }, 0)!;
    expect(c.observe(sample('http_error'), 1)).toBeNull();
    expect(c.observe(sample('ok'), 2)).toBeNull();
    expect(c.observe(sample('skipped'), 2)).toBeNull();
    expect(c.observe(sample('timeout'), 3)).toBeNull();
    expect(c.observe(sample('network_error'), 4)).toMatchObject({ by: 'max-errors' });
    expect(c.observe(sample('network_error'), 5)).toBeNull();
  });

  it('--max-error-rate judges the sliding window only, and only once it holds enough results', () => {
    const c = createStopConditions({ maxErrorRate: 0.5, errorWindowMs: 1000, thresholdAborts: [] }, 0)!;
    // Early errors alone are too few to judge.
    for (let i = 0; i < 5; i += 1) expect(c.observe(sample('http_error'), i)).toBeNull();
    // They leave the window; 20 successes follow, then errors up to just above half of the window.
    for (let i = 0; i < 20; i += 1) expect(c.observe(sample('ok'), 2000 + i)).toBeNull();
    for (let i = 0; i < 20; i += 1) expect(c.observe(sample('http_error'), 2100 + i)).toBeNull();
    expect(c.observe(sample('http_error'), 2200)).toMatchObject({ by: 'max-error-rate' });
  });

  it('an abortOnFail threshold fails live, not before its delayAbortEval', () => {
    const c = createStopConditions({ thresholdAborts: [{ key: 'latency_ms', expression: 'p(95)<50', delay_abort_eval_ms: 1000 }] }, 0)!;
    expect(c.observe(sample('ok', 100), 10)).toBeNull();
    expect(c.observe(sample('ok', 100), 500)).toBeNull();
    const decision = c.observe(sample('ok', 100), 1200);
    expect(decision).toMatchObject({ by: 'threshold' });
    expect(decision!.detail).toContain('latency_ms');
  });

  it('a passing abortOnFail threshold never stops the run', () => {
    const c = createStopConditions({ thresholdAborts: [{ key: 'errors', expression: 'rate<0.5', delay_abort_eval_ms: 0 }] }, 0)!;
    for (let i = 0; i < 50; i += 1) expect(c.observe(sample(i % 4 === 3 ? 'http_error' : 'ok'), i * 300)).toBeNull();
  });
});
