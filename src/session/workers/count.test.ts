import { describe, expect, it } from 'vitest';
import type { LoadSpec } from '../../domain/load.js';
import { chooseWorkers, isLoopback } from './count.js';

const closed = (concurrency: number): LoadSpec => ({ kind: 'closed', concurrency }) as LoadSpec;
const arrivals = { kind: 'arrivals' } as LoadSpec;
const base = { serviceHere: false, partial: false, budget: false, cores: 4 };

describe('how many workers a run gets', () => {
  it('by default: one for a closed loop under 256, else the cores free beside a service on this machine', () => {
    expect(chooseWorkers({ ...base, load: closed(32) }).count).toBe(1);
    expect(chooseWorkers({ ...base, load: closed(500) }).count).toBe(4);
    expect(chooseWorkers({ ...base, load: arrivals, serviceHere: true }).count).toBe(3);
    expect(chooseWorkers({ ...base, load: arrivals, serviceHere: true, cores: 1 }).count).toBe(1);
  });

  it('counts a service on loopback as one on this machine', () => {
    expect(['http://127.0.0.1:8080', 'http://localhost', 'http://[::1]:3000'].map(isLoopback)).toEqual([true, true, true]);
    expect(['https://kb.example.com', 'http://10.0.0.5:80', 'not a url'].map(isLoopback)).toEqual([false, false, false]);
  });

  it('as asked, but never more than a closed loop has slots', () => {
    expect(chooseWorkers({ ...base, load: closed(32), requested: 2 }).count).toBe(2);
    expect(chooseWorkers({ ...base, load: closed(2), requested: 8 })).toMatchObject({ count: 2, notice: expect.stringMatching(/--workers 8: 2 ran/) });
  });

  it('one, said so, where the load cannot split', () => {
    expect(chooseWorkers({ ...base, load: { kind: 'sweep' } as LoadSpec, requested: 2 })).toMatchObject({ count: 1, notice: expect.stringMatching(/sweep/) });
    expect(chooseWorkers({ ...base, load: arrivals, budget: true, requested: 2 }).notice).toMatch(/credit budget/);
    expect(chooseWorkers({ ...base, load: closed(300), partial: true }).count).toBe(1);
    expect(chooseWorkers({ ...base, load: arrivals, budget: true }).notice).toBeUndefined();
  });

  it('never more workers than --max-in-flight allows (item 9), nor more than 2 per core (item 11)', () => {
    const bounded = (maxInFlight: number): LoadSpec => ({ kind: 'arrivals', maxInFlight }) as LoadSpec;
    expect(chooseWorkers({ ...base, load: bounded(1), requested: 3 })).toMatchObject({ count: 1, notice: expect.stringMatching(/--workers 3: 1 ran, one per place of --max-in-flight 1/) });
    expect(chooseWorkers({ ...base, load: bounded(2), requested: 2 }).count).toBe(2);
    expect(chooseWorkers({ ...base, load: bounded(1000), requested: 32 })).toMatchObject({ count: 8, notice: expect.stringMatching(/--workers 32: 8 ran, at most 2 per core \(4 cores\)/) });
    expect(chooseWorkers({ ...base, load: closed(500), requested: 32, cores: 2 }).count).toBe(4);
  });
});
