import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../runner/index.js';
import type { RunConfig } from '../../config/run-config.js';
import type { WorkerSource } from './pool.js';
import type { ResolvedTarget } from '../target.js';
import { KbError } from '../../domain/errors.js';
import { WorkerError } from './messages.js';
import { startWorkers } from './pool.js';

const target: ResolvedTarget = { baseUrl: 'http://127.0.0.1:1', apiKey: 'k', boardId: 'b', chatId: 'c', embedded: false, stop: () => Promise.resolve() };
const entry = new URL('./fixtures/failing-worker.mjs', import.meta.url);

const sourceOf = (options: RunConfig): WorkerSource =>
  ({ options, load: { kind: 'arrivals' }, plan: { units: () => [][Symbol.iterator]() } }) as unknown as WorkerSource;

async function drain(how: string): Promise<{ events: RunEvent[]; error: unknown }> {
  const never = new AbortController().signal;
  const handle = await startWorkers(sourceOf({ how } as unknown as RunConfig), target, { previousUnits: 0, maxWeight: 1 }, 2, { stop: never, abort: never }, entry);
  const events: RunEvent[] = [];
  try {
    for await (const event of handle.events) events.push(event);
  } catch (error) {
    return { events, error };
  }
  return { events, error: null };
}

describe('a worker that fails', () => {
  it.each([
    ['posted', /worker 2 of 2: the plan broke/],
    ['thrown', /worker 2 of 2: an uncaught throw/],
    ['exit', /worker 2 of 2: the thread exited \(code 7\) before its loop ended/],
  ])('%s: ends the run with a WorkerError naming it, after what it had sent', async (how, message) => {
    const { events, error } = await drain(how);
    expect(error).toBeInstanceOf(WorkerError);
    expect((error as WorkerError).code).toBe('E_WORKER');
    expect(String((error as Error).message)).toMatch(message);
    expect(events.some((e) => e.type === 'sample' && e.sample.item_id === 'w1')).toBe(true);
  });
});

describe('a worker failure is one line (exit 3)', () => {
  it('a multi-line message or a stack gives a KbError of one line, E_WORKER', () => {
    const error = new WorkerError('worker 1 of 2', { name: 'Error', message: "ENOENT: no such file\n    at open (node:fs:1)\n    at main", stack: 'Error: ENOENT\n    at x' });
    expect(error).toBeInstanceOf(KbError);
    expect(error.message).toBe('worker 1 of 2: ENOENT: no such file');
    expect(error.message).not.toContain('\n');
  });
});
