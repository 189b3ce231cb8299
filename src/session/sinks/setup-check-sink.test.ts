import { describe, expect, it } from 'vitest';
import type { Sample } from '../../domain/sample.js';
import { sample } from '../../test-support/fixtures.js';
import type { StopDecision } from '../stop-conditions.js';
import { setupCheckSink } from './setup-check-sink.js';

const notFound = (over: Partial<Sample> = {}): Sample => ({
  ...sample({ outcome: 'http_error', pass: false }), status: 404, error: { code: 'E_NOT_FOUND', message: 'chat not found' }, ...over,
});

describe('setup check sink', () => {
  it('halts the run when the first results of a model are all refused the same way, naming the target', () => {
    const halts: StopDecision[] = [];
    const sink = setupCheckSink({ boardId: 'b1', chatId: 'c9' }, { halt: (d) => halts.push(d) });
    sink.onEvent!({ type: 'start', id: 1, at_ms: 0, intended_at_ms: null });
    sink.onEvent!({ type: 'sample', sample: notFound() });
    sink.onEvent!({ type: 'sample', sample: notFound() });
    expect(halts).toEqual([]);
    sink.onEvent!({ type: 'sample', sample: notFound() });
    expect(halts).toHaveLength(1);
    expect(halts[0]).toMatchObject({ by: 'setup' });
    expect(halts[0]!.detail).toContain('board b1, chat c9');
  });

  it('leaves warmup results out, and an answer first means no setup mistake', () => {
    const halts: StopDecision[] = [];
    const sink = setupCheckSink({ boardId: 'b', chatId: 'c' }, { halt: (d) => halts.push(d) });
    for (let i = 0; i < 5; i += 1) sink.onEvent!({ type: 'sample', sample: notFound({ warmup: true }) });
    sink.onEvent!({ type: 'sample', sample: sample() });
    for (let i = 0; i < 5; i += 1) sink.onEvent!({ type: 'sample', sample: notFound() });
    expect(halts).toEqual([]);
  });
});
