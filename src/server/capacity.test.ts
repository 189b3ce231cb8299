import { describe, expect, it } from 'vitest';
import { CapacityModel, ModelCapacity, type Admitted } from './capacity.js';

const admitted = async (promise: Promise<unknown>): Promise<Admitted> => {
  const admission = (await promise) as Admitted;
  expect(admission.ok).toBe(true);
  return admission;
};

/** Whether a promise has settled after the pending microtasks ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('ModelCapacity', () => {
  it('admits up to its slots at once, queues the next ones, and refuses beyond the queue', async () => {
    const capacity = new ModelCapacity({ slots: 2, queueLimit: 1 });
    const first = await admitted(capacity.acquire());
    const second = await admitted(capacity.acquire());
    expect([first.queued, second.queued]).toEqual([false, false]);
    const third = capacity.acquire();
    expect(await settled(third)).toBe(false);
    expect(await capacity.acquire()).toEqual({ ok: false, reason: 'queue-full' });
    expect([capacity.activeCount, capacity.queuedCount]).toEqual([2, 1]);
    first.release();
    const thirdAdmitted = await admitted(third);
    expect(thirdAdmitted.queued).toBe(true);
    expect([capacity.activeCount, capacity.queuedCount]).toEqual([2, 0]);
  });

  it('hands freed slots out first in, first out, and a double release frees one slot only', async () => {
    const capacity = new ModelCapacity({ slots: 1, queueLimit: 5 });
    const holder = await admitted(capacity.acquire());
    const order: number[] = [];
    const waiters = [1, 2, 3].map((n) => capacity.acquire().then((a) => (order.push(n), a as Admitted)));
    holder.release();
    holder.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([1]);
    (await waiters[0]!).release();
    (await waiters[1]!).release();
    (await waiters[2]!).release();
    expect(order).toEqual([1, 2, 3]);
    expect(capacity.activeCount).toBe(0);
  });

  it('drops a waiter whose client left, and rejects with the reason', async () => {
    const capacity = new ModelCapacity({ slots: 1, queueLimit: 1 });
    const holder = await admitted(capacity.acquire());
    const controller = new AbortController();
    const waiting = capacity.acquire(controller.signal);
    controller.abort(new Error('client left'));
    await expect(waiting).rejects.toThrow('client left');
    expect(capacity.queuedCount).toBe(0);
    holder.release();
    expect(capacity.activeCount).toBe(0);
  });

  it('with 0 slots admits everything at once', async () => {
    const capacity = new ModelCapacity({ slots: 0, queueLimit: 0 });
    for (let i = 0; i < 100; i++) expect((await admitted(capacity.acquire())).queued).toBe(false);
    expect(capacity.activeCount).toBe(0);
  });
});

describe('CapacityModel', () => {
  it('keeps one queue per model, from each model’s limits', async () => {
    const model = new CapacityModel((name) => ({ slots: name === 'big' ? 1 : 2, queueLimit: 0 }), true);
    await admitted(model.acquire('big'));
    expect((await model.acquire('big')).ok).toBe(false);
    await admitted(model.acquire('small'));
    await admitted(model.acquire('small'));
    expect((await model.acquire('small')).ok).toBe(false);
    expect(model.load('small')).toEqual({ active: 2, queued: 0 });
  });

  it('admits everything when disabled (latencyScale 0)', async () => {
    const model = new CapacityModel(() => ({ slots: 1, queueLimit: 0 }), false);
    for (let i = 0; i < 10; i++) await admitted(model.acquire('any'));
    expect(model.load('any')).toEqual({ active: 0, queued: 0 });
  });
});
