import { describe, expect, it } from 'vitest';
import type { LoadSpec } from '../../domain/load.js';
import type { RunEvent } from '../../runner/index.js';
import { sample, sampleWith } from '../../test-support/fixtures.js';
import { recordableEvents, recordingConfigOf, runRedactor } from './recordable.js';

const KEY = 'kb-live-0123456789abcdef';
const configOf = (spec: LoadSpec) => recordingConfigOf({ load: { spec }, placement: {} });
const redact = runRedactor({ target: { auth: 'header' }, grader: {}, outputs: { reportsRoot: 'reports' } }, KEY, []);

describe('recordable events', () => {
  it('passes a result that needs nothing as the very event it came in (no copy on the hot path)', () => {
    const recordable = recordableEvents(configOf({ kind: 'closed', concurrency: 2 }), redact);
    const event: RunEvent = { type: 'sample', sample: sample() };
    expect(recordable(event)).toBe(event);
    const start: RunEvent = { type: 'start', id: 1, at_ms: 0, intended_at_ms: null };
    expect(recordable(start)).toBe(start);
  });

  it('marks a result started within --warmup, and scrubs a credential the answer echoed', () => {
    const recordable = recordableEvents(configOf({ kind: 'closed', concurrency: 2, warmupMs: 500 }), redact);
    const early = recordable({ type: 'sample', sample: sampleWith({ offset_ms: 100 }) });
    const late = recordable({ type: 'sample', sample: sampleWith({ offset_ms: 900, text: `your key is ${KEY}` }) });
    expect(early).toMatchObject({ type: 'sample', sample: { warmup: true } });
    expect(late.type === 'sample' && late.sample.warmup).toBeUndefined();
    expect(late.type === 'sample' && late.sample.text).toBe('your key is [redacted]');
  });

  it('a sweep\'s results are warmup until its rates begin (its probes are out of its figures)', () => {
    const spec: LoadSpec = { kind: 'sweep', rates: 3, rateMs: 30_000, probeMs: 10_000, saturationWorkers: 16, arrival: 'constant', maxInFlight: 16, slo: { ttfc_ms: ['p(95)<2000'] } };
    const recordable = recordableEvents(configOf(spec), redact);
    const probe = recordable({ type: 'sample', sample: sampleWith({ offset_ms: 50_000 }) });
    expect(probe.type === 'sample' && probe.sample.warmup).toBe(true);
    recordable({
      type: 'sweep', start_ms: 20_000, rate_ms: 30_000, rates: [1, 2, 3],
      probes: { sequential: { concurrency: 1, start_ms: 0, end_ms: 10_000, starts: 10, rate_per_s: 1 }, saturation: { concurrency: 16, start_ms: 10_000, end_ms: 20_000, starts: 40, rate_per_s: 4 } },
    });
    const rated = { type: 'sample', sample: sampleWith({ offset_ms: 50_000 }) } as const;
    expect(recordable(rated)).toBe(rated);
  });
});
