// Checks the run-directory lock: one holder, a live holder refused by pid, a dead one's lock taken over.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pid, ppid } from 'node:process';
import { describe, expect, it } from 'vitest';
import { acquireRunLock, LOCK_FILE, takeOverNotice } from './run-lock.js';

const fresh = (): string => mkdtempSync(join(tmpdir(), 'kbbench-lock-'));

describe('acquireRunLock', () => {
  it('writes the holder, refuses a second taker in the same process, and is gone once released', () => {
    const dir = fresh();
    const lock = acquireRunLock(dir, 'kbbench run');
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toEqual({ pid, command: 'kbbench run', host: hostname() });
    expect(() => acquireRunLock(dir, 'kbbench report')).toThrow(/already holds/);
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('refuses a lock held by a live process, naming its pid', () => {
    const dir = fresh();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: ppid, command: 'kbbench run --resume', host: hostname() }));
    expect(() => acquireRunLock(dir, 'kbbench run')).toThrow(`in use by another kbbench process (pid ${ppid}, kbbench run --resume)`);
  });

  it('takes over the lock of a dead process, or of this pid in an earlier life (a restarted container), and says so', () => {
    const dir = fresh();
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: dead, command: 'kbbench run' }));
    const lock = acquireRunLock(dir, 'kbbench run');
    expect(takeOverNotice(lock)).toBe(`took over the lock of ${dir} left by process ${dead}, which is no longer running (killed?)`);
    lock.release();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid, command: 'kbbench run', host: hostname() }));
    const again = acquireRunLock(dir, 'kbbench report');
    expect(again.tookOverFrom).toBe(pid);
    again.release();
  });

  it('refuses a lock of another machine, whose process it cannot check', () => {
    const dir = fresh();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: 1, command: 'kbbench run', host: 'elsewhere' }));
    expect(() => acquireRunLock(dir, 'kbbench run')).toThrow(/another machine \(elsewhere, pid 1/);
  });
});
