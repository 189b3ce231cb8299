import { describe, expect, it } from 'vitest';
import { BatchQueue } from './batch-queue.js';

const options = { kind: 'prometheus-rw' as const, url: 'http://127.0.0.1:1/', samplesOf: (b: number[]) => b.length };

describe('BatchQueue', () => {
  it('sends every batch in order and reports them', async () => {
    const seen: number[][] = [];
    const queue = new BatchQueue<number[]>({ ...options, send: async (b) => void seen.push(b) });
    queue.push([1]);
    queue.push([2, 3]);
    const report = await queue.stop(1000);
    expect(seen).toEqual([[1], [2, 3]]);
    expect(report).toMatchObject({ sent_batches: 2, sent_samples: 3, dropped_batches: 0, errors: 0 });
  });

  it('counts a failing endpoint as dropped batches and errors, never throwing into push', async () => {
    const queue = new BatchQueue<number[]>({ ...options, send: () => Promise.reject(new Error('connect ECONNREFUSED')) });
    for (let i = 0; i < 5; i++) queue.push([i]);
    const report = await queue.stop(1000);
    expect(report).toMatchObject({ sent_batches: 0, dropped_batches: 5, errors: 5, first_error: 'connect ECONNREFUSED' });
  });

  it('bounds the queue (oldest dropped) and gives up a hung send at the deadline', async () => {
    const queue = new BatchQueue<number[]>({ ...options, maxBatches: 2, send: (_b, signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))) });
    for (let i = 0; i < 6; i++) queue.push([i]);
    const report = await queue.stop(10);
    // One in flight (hung, cut at the deadline), two queued, three pushed out of the full queue.
    expect(report).toMatchObject({ sent_batches: 0, dropped_batches: 6, errors: 0 });
  });
});
