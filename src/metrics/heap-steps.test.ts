import { describe, expect, it } from 'vitest';
import { setImmediate as tick } from 'node:timers/promises';
import { collectBetweenSteps, collectReportSteps } from './heap-steps.js';

/** A WeakRef to an object nothing else holds (made in its own function, so no local keeps it). */
function weakGarbage(): WeakRef<object> {
  return new WeakRef({ rows: new Array(1000).fill('x') });
}

describe('collectBetweenSteps', () => {
  it("is a full collection once the process opted in (before, a no-op: a library user's heap is theirs)", async () => {
    expect(() => collectBetweenSteps()).not.toThrow();
    collectReportSteps();
    collectReportSteps(); // once is enough; twice changes nothing
    const after = weakGarbage();
    // A WeakRef's target lives at least until the job that made it ends.
    await tick();
    collectBetweenSteps();
    expect(after.deref()).toBeUndefined();
  });
});
