import { describe, expect, it } from 'vitest';
import { StorageError } from '../../domain/errors.js';
import { closeSinks, mergeOutcomes, type RunSink, type SinkOutcome } from './sink.js';

const closing = (name: string, outcome: SinkOutcome, order: string[]): RunSink => ({
  name,
  close: async () => {
    order.push(name);
    return outcome;
  },
});

describe('run sinks', () => {
  it('merges outcomes field by field, the first sink that gives a field keeping it (results.ndjson\'s failure before the timeline\'s)', () => {
    const results = new StorageError('results.ndjson: no space', 'results.ndjson', 'ENOSPC');
    const timeline = new StorageError('timeline.ndjson: no space', 'timeline.ndjson', 'ENOSPC');
    const merged = mergeOutcomes([{ failure: results }, { failure: timeline, outputs: [] }, { dropped: 0 }, { dropped: 3, unrecordedUnits: 7 }]);
    expect(merged).toEqual({ failure: results, outputs: [], dropped: 0, unrecordedUnits: 7 });
  });

  it('closes every sink in the list\'s order, awaiting each', async () => {
    const order: string[] = [];
    const merged = await closeSinks([closing('results', {}, order), closing('outputs', { outputs: [] }, order), { name: 'sync', close: () => ({ dropped: 2 }) }]);
    expect(order).toEqual(['results', 'outputs']);
    expect(merged).toEqual({ outputs: [], dropped: 2 });
  });
});
