// Issue 20 item 8: a stale lock (its holder killed) taken over by several processes at once has one
// winner. Real child processes race on one lock file; counted over rounds, never timed.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from './helpers.js';

const LOCK_MODULE = join(ROOT, 'dist/store/run-lock.js');

// Each child says "ready", spins until `go` exists (so all reach the lock together), tries the lock,
// says what it got, and a winner holds it until `done` exists.
const CHILD = `
import { existsSync } from 'node:fs';
import { join } from 'node:path';
const { acquireRunLock } = await import(${JSON.stringify(LOCK_MODULE)});
const dir = process.argv[1];
console.log('ready');
while (!existsSync(join(dir, 'go'))) {}
let lock = null;
try { lock = acquireRunLock(dir, 'run'); console.log('won'); } catch (error) { console.log('refused ' + error.message); }
if (lock) { while (!existsSync(join(dir, 'done'))) await new Promise((r) => setTimeout(r, 5)); lock.release(); }
`;

function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
  return Number(child.stdout.trim());
}

async function race(takers: number): Promise<string[]> {
  const dir = tempDir('kbbench-lock-race-');
  writeFileSync(join(dir, '.kbbench.lock'), `${JSON.stringify({ pid: deadPid(), command: 'run', host: hostname() })}\n`);
  const children = Array.from({ length: takers }, () => spawn(process.execPath, ['--input-type=module', '-e', CHILD, dir], { stdio: ['ignore', 'pipe', 'inherit'] }));
  const lines = children.map((child) => createInterface({ input: child.stdout! })[Symbol.asyncIterator]());
  for (const it of lines) expect((await it.next()).value).toBe('ready');
  writeFileSync(join(dir, 'go'), '');
  const outcomes: string[] = [];
  for (const it of lines) outcomes.push(String((await it.next()).value));
  writeFileSync(join(dir, 'done'), '');
  await Promise.all(children.map((child) => (child.exitCode === null ? once(child, 'exit') : null)));
  return outcomes;
}

describe('taking over a stale run lock', () => {
  it('gives it to exactly one of several processes racing for it, round after round', async () => {
    for (let round = 0; round < 6; round += 1) {
      const outcomes = await race(5);
      expect(outcomes.filter((o) => o === 'won')).toHaveLength(1);
      // The others are refused as an input error (a live holder, or one still taking over): never a crash.
      for (const o of outcomes.filter((x) => x !== 'won')) expect(o).toMatch(/^refused the run directory( is in use by another kbbench process|'s lock keeps changing hands)/);
    }
  });
});
