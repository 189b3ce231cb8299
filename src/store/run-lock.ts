// The exclusive lock on a run directory: run, --resume, merge and report each hold it while they
// write, so two processes never append to (and pay for) one run at once.
import { MAX_RUN_JSON_BYTES, readRunFile } from './run-file.js';
import { rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { kill, pid as ownPid } from 'node:process';
import { InputError } from '../domain/errors.js';
import { createFileWholeSync as createWhole } from './atomic-file.js';

/** A dot file: not a report, skipped by globs; it names the holder so a refusal can say who. */
export const LOCK_FILE = '.kbbench.lock';

interface LockBody {
  pid: number;
  command: string;
  /** A pid means something on its own machine only (a shared volume, another container). */
  host?: string;
}

export interface RunLock {
  readonly dir: string;
  /** The pid of a dead process whose lock was taken over (kill -9, a crash), said to the user. */
  readonly tookOverFrom: number | null;
  release(): void;
}

/** Whether a process with this pid exists (EPERM: it does, and belongs to someone else). */
function alive(pid: number): boolean {
  try {
    kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(path: string): LockBody | null {
  try {
    const body = JSON.parse(readRunFile(path, MAX_RUN_JSON_BYTES)) as Partial<LockBody>;
    if (typeof body.pid !== 'number') return null;
    return { pid: body.pid, command: String(body.command ?? 'kbbench'), ...(typeof body.host === 'string' ? { host: body.host } : {}) };
  } catch {
    return null; // gone in between, or unreadable (created whole, so not a live writer's): stale
  }
}

/**
 * The locks this process holds. A lock is a process's identity (its pid, read from node:process: not
 * the terminal, argv or exit, which stay cli/'s). Released by the command's own `finally`; a kill -9
 * leaves it, and the next process takes it over.
 */
const held = new Set<string>();

/**
 * Takes the lock of `dir` (which must exist) for `command`, or throws an InputError (exit 2) naming
 * the live holder's pid. A lock left by a dead process (kill -9) is taken over: `tookOverFrom`.
 * Creation is atomic (O_EXCL), so of two processes racing for a free or stale lock, one wins.
 */
export function acquireRunLock(dir: string, command: string, options: { readOnly?: boolean } = {}): RunLock {
  const path = join(dir, LOCK_FILE);
  const host = hostname();
  const body = `${JSON.stringify({ pid: ownPid, command, host } satisfies LockBody)}\n`;
  let tookOverFrom: number | null = null;
  // A few rounds: each either takes the lock, is refused by a live holder, or clears a stale one.
  for (let attempt = 0; attempt < 8; attempt += 1) {
    try {
      createWhole(path, body);
      held.add(path);
      return {
        dir,
        tookOverFrom,
        release: () => {
          if (!held.delete(path)) return;
          rmSync(path, { force: true });
        },
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A directory only read (a shard downloaded read-only) that cannot be locked is read unlocked:
      // nobody can be writing to it through kbbench either.
      if (options.readOnly && (code === 'EACCES' || code === 'EROFS' || code === 'EPERM')) return { dir, tookOverFrom: null, release: () => undefined };
      if (code !== 'EEXIST') throw new InputError(`cannot lock the run directory (${code ?? 'error'})`, { file: dir });
    }
    const holder = readHolder(path);
    if (holder?.host !== undefined && holder.host !== host) {
      throw new InputError(
        `the run directory is locked by kbbench on another machine (${holder.host}, pid ${holder.pid}, ${holder.command}), whose process cannot be checked from here. ` +
          `If it no longer runs, remove ${LOCK_FILE}`,
        { file: dir },
      );
    }
    // Our own pid in a lock we do not hold is an earlier process that had it (a restarted container's pid 1): stale.
    if (holder && holder.pid !== ownPid && alive(holder.pid)) {
      throw new InputError(
        `the run directory is in use by another kbbench process (pid ${holder.pid}, ${holder.command}); wait for it to end, or stop it. ` +
          `If no kbbench runs there, remove ${LOCK_FILE}`,
        { file: dir },
      );
    }
    if (holder?.pid === ownPid && held.has(path)) throw new InputError('this process already holds the lock of this run directory', { file: dir });
    // The holder is dead: its lock is stale. Two processes that both saw it stale must not both
    // remove it (the second would remove the first's fresh lock, and both would win), so removing
    // it takes a takeover file (O_EXCL) and re-reads the lock under it: only a lock still naming
    // the dead holder seen is removed. Then whoever creates the lock first has it.
    tookOverFrom = holder?.pid ?? tookOverFrom ?? 0;
    removeStale(path, holder, body);
  }
  throw new InputError('the run directory\'s lock keeps changing hands: another kbbench process is starting there', { file: dir });
}

const sameHolder = (a: LockBody | null, b: LockBody | null): boolean => (a === null ? b === null : b !== null && a.pid === b.pid && a.host === b.host);

/** Removes the stale lock `seen` at `path` unless another process replaced it meanwhile; see acquireRunLock. */
function removeStale(path: string, seen: LockBody | null, body: string): void {
  const takeover = `${path}.takeover`;
  try {
    createWhole(takeover, body);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Another process is taking over now. A takeover file naming a dead process (killed in these few
    // lines), or unreadable (created whole, so never half-written by a live one), is cleared.
    const other = readHolder(takeover);
    if (other === null || other.pid === ownPid || !alive(other.pid)) rmSync(takeover, { force: true });
    return;
  }
  try {
    if (sameHolder(readHolder(path), seen)) rmSync(path, { force: true });
  } finally {
    rmSync(takeover, { force: true });
  }
}

/** The message for a lock taken over from a dead process. */
export function takeOverNotice(lock: RunLock): string | null {
  if (lock.tookOverFrom === null) return null;
  const who = lock.tookOverFrom > 0 ? `process ${lock.tookOverFrom}, which is no longer running` : 'a process that did not finish writing it';
  return `took over the lock of ${lock.dir} left by ${who} (killed?)`;
}
