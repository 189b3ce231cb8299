// Whole-process measurements for the peer benchmarks: spawn a command, and return its wall time, the
// peak RSS of its whole process tree and its CPU time (user + sys).
//  - wall: performance.now() from spawn to exit, in this process.
//  - peak RSS (tree): every 50 ms the tree under the command is walked through
//    /proc/<pid>/task/<tid>/children and the resident pages of each process (/proc/<pid>/statm) are
//    summed; the largest sum is kept. A peak shorter than 50 ms can be missed, so it is a lower bound.
//  - CPU and the largest single RSS: GNU time (/usr/bin/time -f) around the command gives user and sys
//    seconds (10 ms resolution) of the command and every descendant it waited for, and %M, the peak RSS
//    of the largest single process of the tree.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { clearInterval, clearTimeout, setInterval, setTimeout } from 'node:timers';

const PAGE = 4096;
const SAMPLE_MS = 50;
const TIME_BIN = '/usr/bin/time';

function childrenOf(pid) {
  const out = [];
  let tasks;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tasks) {
    try {
      for (const c of readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ')) if (c) out.push(Number(c));
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

function rssBytes(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE;
  } catch {
    return 0;
  }
}

/** Sum of RSS over the descendants of `root` (not `root` itself: it is the GNU time wrapper), and how many. */
export function treeRss(root) {
  let total = 0;
  let count = 0;
  const stack = childrenOf(root);
  const seen = new Set();
  while (stack.length > 0 && seen.size < 10_000) {
    const pid = stack.pop();
    if (seen.has(pid)) continue;
    seen.add(pid);
    total += rssBytes(pid);
    count += 1;
    stack.push(...childrenOf(pid));
  }
  return { bytes: total, count };
}

/**
 * Runs `cmd args` to its end (or until `timeoutMs`, then SIGTERM and, 5 s later, SIGKILL to the
 * command's process group). Resolves { code, signal, timed_out, wall_ms, user_s, sys_s, cpu_s,
 * peak_rss_mb, max_single_rss_mb, max_processes, stdout, stderr }.
 */
export function measure(cmd, args, { env = process.env, cwd, timeoutMs = 120_000, keepStdout = true } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'kbbench-proc-'));
  const timeFile = join(dir, 'time.txt');
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(TIME_BIN, ['-f', '%e %U %S %M', '-o', timeFile, cmd, ...args], {
      env, cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true, // its own process group, so a timeout can end the whole tree
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      if (keepStdout && stdout.length < 64 * 1024 * 1024) stdout += d;
    });
    child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-20_000)));
    let peak = 0;
    let maxProcesses = 0;
    const sample = () => {
      const { bytes, count } = treeRss(child.pid);
      if (bytes > peak) peak = bytes;
      if (count > maxProcesses) maxProcesses = count;
    };
    const poll = setInterval(sample, SAMPLE_MS);
    let timedOut = false;
    let killTimer = null;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      killTimer = setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }, 5000);
    }, timeoutMs);
    child.once('error', (error) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      const wallMs = performance.now() - t0;
      clearInterval(poll);
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      let user = Number.NaN;
      let sys = Number.NaN;
      let maxSingleKb = Number.NaN;
      let exitCode = code;
      try {
        const lines = readFileSync(timeFile, 'utf8').trim().split('\n');
        // "Command exited with non-zero status N" precedes the format line when the command failed.
        const last = lines.at(-1).split(' ').map(Number);
        [, user, sys, maxSingleKb] = last;
        const failed = lines.find((l) => l.startsWith('Command exited with non-zero status'));
        if (failed) exitCode = Number(failed.split(' ').at(-1));
        const killed = lines.find((l) => l.startsWith('Command terminated by signal'));
        if (killed) exitCode = 128 + Number(killed.split(' ').at(-1));
      } catch {
        // time wrote nothing (it was killed)
      }
      rmSync(dir, { recursive: true, force: true });
      resolve({
        code: exitCode, signal, timed_out: timedOut, wall_ms: wallMs,
        user_s: user, sys_s: sys, cpu_s: user + sys,
        peak_rss_mb: peak / 1024 / 1024, max_single_rss_mb: maxSingleKb / 1024, max_processes: maxProcesses,
        stdout, stderr,
      });
    });
  });
}
