// The e2e files share a forked process per worker (isolate: false, vitest.config.ts): a file runs in
// the process the previous one ran in, so nothing a file starts may outlive it there. A server, a
// socket, a child process or a timer left behind would run on beside the next file (an open loop
// among them, whose starts must not wait on this process). After each file, the resources keeping
// this process's event loop alive (process.getActiveResourcesInfo()) must be those it had before the
// file: waited for while they close (a killed child is reaped, a socket ends), then named if they stay.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll } from 'vitest';

function counts(): Map<string, number> {
  const byType = new Map<string, number>();
  for (const type of process.getActiveResourcesInfo()) byType.set(type, (byType.get(type) ?? 0) + 1);
  return byType;
}

/** Resource types of which more are alive now than before the file, with how many more. */
export function leftOvers(before: ReadonlyMap<string, number>, now: ReadonlyMap<string, number>): string[] {
  return [...now].filter(([type, n]) => n > (before.get(type) ?? 0)).map(([type, n]) => `${n - (before.get(type) ?? 0)} × ${type}`);
}

/** How long what a file stopped may take to close (a child reaped, a socket ended) on a loaded machine. */
const SETTLE_MS = 20_000;

let before = new Map<string, number>();

beforeAll(() => {
  before = counts();
});

afterAll(async () => {
  for (let waited = 0; ; waited += 50) {
    const left = leftOvers(before, counts());
    if (left.length === 0) return;
    if (waited >= SETTLE_MS) {
      throw new Error(`this file left ${left.join(', ')} alive in the e2e worker the next file runs in: stop what it starts (afterAll)`);
    }
    await sleep(50);
  }
}, 30_000);
