import { describe, expect, it } from 'vitest';
import type { Sample } from '../../domain/sample.js';
import { FakeClock } from '../../test-support/fake-clock.js';
import { sample } from '../../test-support/fixtures.js';
import type { StopDecision } from '../stop-conditions.js';
import { stopConditionsSink, stopOptionsOf } from './stop-conditions-sink.js';

const failed = (over: Partial<Sample> = {}): Sample => ({ ...sample({ outcome: 'http_error', pass: false }), ...over });

describe('stop conditions sink', () => {
  it('reads the stop section of the config it is given, and nothing it was not', () => {
    expect(stopOptionsOf({ stop: { maxErrors: 3 } }, [])).toEqual({ maxErrors: 3, thresholdAborts: [] });
    expect(stopOptionsOf({ stop: { maxErrorRate: 0.5, errorWindowMs: 2000 } }, [])).toEqual({ maxErrorRate: 0.5, errorWindowMs: 2000, thresholdAborts: [] });
  });

  it('halts the run once --max-errors is reached, judging recorded results out of warmup only', () => {
    const clock = new FakeClock();
    const halts: StopDecision[] = [];
    const sink = stopConditionsSink(stopOptionsOf({ stop: { maxErrors: 2 } }, []), clock.now(), { halt: (d) => halts.push(d) }, clock);
    sink.onEvent!({ type: 'sample', sample: failed({ warmup: true }) });
    sink.onEvent!({ type: 'dropped', count: 4 });
    sink.onEvent!({ type: 'sample', sample: failed() });
    expect(halts).toEqual([]);
    sink.onEvent!({ type: 'sample', sample: failed() });
    expect(halts).toEqual([{ by: 'max-errors', detail: '2 failed requests reached --max-errors 2' }]);
    sink.onEvent!({ type: 'sample', sample: failed() });
    expect(halts).toHaveLength(1);
  });

  it('judges the error window on its clock: an unreachable target halts the run', async () => {
    const clock = new FakeClock();
    const halts: StopDecision[] = [];
    const sink = stopConditionsSink(stopOptionsOf({ stop: {} }, []), clock.now(), { halt: (d) => halts.push(d) }, clock);
    const refused = failed({ outcome: 'network_error', status: null, chunks: 0, error: { code: 'E_CONNECTION', message: 'ECONNREFUSED' } });
    sink.onEvent!({ type: 'sample', sample: sample() });
    for (let i = 0; i < 10; i += 1) sink.onEvent!({ type: 'sample', sample: refused });
    expect(halts).toEqual([]); // the last connection is within the window
    await clock.advance(10_001);
    sink.onEvent!({ type: 'sample', sample: refused });
    expect(halts).toMatchObject([{ by: 'unreachable' }]);
  });
});
