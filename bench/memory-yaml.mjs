// Bench: peak memory of reading a YAML suite (issue 20 item 18): a 50 MB prompt, 100,000 one-turn
// threads (--quick: 20,000; also without --json), and /dev/zero as a suite. Each is `kbbench validate FILE` in a child
// process whose VmHWM the parent polls from /proc. Goal: 150 MB + 10 × the file's size.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clearInterval, setInterval } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { printMethod, printTable, round } from './lib/stats.mjs';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const MB = 1024 * 1024;

async function write(path, pieces) {
  const out = createWriteStream(path);
  for (const piece of pieces) if (!out.write(piece)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

function* bigPrompt(mb) {
  yield 'name: big\nmodels: [gpt-4o]\ncases:\n  - id: big\n    prompt: ';
  for (let i = 0; i < mb; i += 1) yield 'a'.repeat(MB);
  yield '\n';
}

function* threads(n) {
  yield 'name: many\nmodels: [gpt-4o]\nthreads:\n';
  let chunk = '';
  for (let i = 0; i < n; i += 1) {
    chunk += `  - id: t${i}\n    turns: [ { prompt: q${i} } ]\n`;
    if (chunk.length > MB) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk;
}

function vmHwm(pid) {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

async function validate(file, json = true) {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, 'validate', file, ...(json ? ['--json'] : [])], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, vmHwm(child.pid))), 20);
  const [code] = await once(child, 'exit');
  clearInterval(timer);
  return { code, peakMb: round(peak / MB, 1), seconds: round((performance.now() - started) / 1000, 1), error: stderr.trim().split('\n')[0] ?? '' };
}

export async function benchMemoryYaml({ quick = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'kbbench-bench-yaml-'));
  try {
    const n = quick ? 20_000 : 100_000;
    const files = [
      { what: `one ${quick ? 10 : 50} MB prompt`, path: join(dir, 'prompt.yaml'), pieces: bigPrompt(quick ? 10 : 50) },
      { what: `${n.toLocaleString('en')} one-turn threads`, path: join(dir, 'threads.yaml'), pieces: threads(n) },
    ];
    const rows = [];
    for (const f of files) {
      await write(f.path, f.pieces);
      const sizeMb = statSync(f.path).size / MB;
      const goal = 150 + 10 * sizeMb;
      // The threads suite also as plain text (validate without --json): 200k request lines printed.
      for (const json of f.path.endsWith('threads.yaml') ? [true, false] : [true]) {
        const r = await validate(f.path, json);
        rows.push({ suite: `${f.what}${json ? '' : ' (text)'}`, file_mb: round(sizeMb, 1), exit: r.code, peak_rss_mb: r.peakMb, goal_mb: round(goal, 0), within_goal: r.peakMb <= goal ? 'yes' : 'NO', seconds: r.seconds });
      }
    }
    const zero = join(dir, 'zero.yaml');
    symlinkSync('/dev/zero', zero);
    const z = await validate(zero);
    rows.push({ suite: '/dev/zero', file_mb: '∞', exit: z.code, peak_rss_mb: z.peakMb, goal_mb: 150, within_goal: z.peakMb <= 150 && z.code === 2 ? 'yes' : 'NO', seconds: z.seconds });
    console.log('\n== Memory: reading a YAML suite (kbbench validate) ==');
    printMethod('a generator writes each suite; a child process runs `kbbench validate FILE --json` (and, for the threads, `kbbench validate FILE`: text; stdout discarded); peak RSS is its VmHWM from /proc/<pid>/status, polled every 20 ms. Goal (issue 20 item 18): 150 MB + 10 × the file size; /dev/zero must be refused (exit 2) within 150 MB.');
    printTable('YAML suites', Object.keys(rows[0]), rows);
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await benchMemoryYaml({ quick: process.argv.includes('--quick') });
