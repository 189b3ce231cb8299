// Bench e: peak memory and speed of loading and planning a very large CSV suite (1,000,000 rows;
// --quick 200,000), in a child process whose VmHWM the parent polls from /proc.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clearInterval, setInterval } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { printMethod, printTable, round } from './lib/stats.mjs';

const CHILD = fileURLToPath(new URL('./memory-csv-child.mjs', import.meta.url));
const MB = 1024 * 1024;
/** The budget: a fixed 150 MB plus 100 bytes per row of peak RSS. */
const BASE_BUDGET = 150 * MB;
const PER_ROW_BUDGET = 100;

/** Rows shaped as the example, written in 1 MB chunks so the generator itself stays small. */
export async function writeCsv(path, rows) {
  const out = createWriteStream(path);
  let chunk = 'id,prompt,expected\n';
  for (let i = 0; i < rows; i += 1) {
    chunk += `c${i},How long do customers have to ask for a refund (question ${i})?,days\n`;
    if (chunk.length > MB) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

function vmHwm(pid) {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0; // the child has exited; its last reading stands
  }
}

/** Runs the child, polling its VmHWM every 20 ms; resolves with its JSON line and the highest reading. */
async function measure(file) {
  const child = spawn(process.execPath, ['--expose-gc', CHILD, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (data) => (out += data));
  let polled = 0;
  const timer = setInterval(() => (polled = Math.max(polled, vmHwm(child.pid))), 20);
  const [code] = await once(child, 'exit');
  clearInterval(timer);
  if (code !== 0) throw new Error(`memory-csv-child exited ${code}`);
  const result = JSON.parse(out.trim().split('\n').at(-1));
  return { ...result, polled_hwm_mb: round(polled / MB, 1) };
}

export async function benchMemoryCsv({ quick = false } = {}) {
  const rows = quick ? 200_000 : 1_000_000;
  const dir = mkdtempSync(join(tmpdir(), 'kbbench-bench-csv-'));
  try {
    const file = join(dir, 'suite.csv');
    await writeCsv(file, rows);
    const fileMb = statSync(file).size / MB;
    const result = await measure(file);
    const peakMb = Math.max(result.polled_hwm_mb, result.self_hwm_mb);
    const goalMb = (BASE_BUDGET + PER_ROW_BUDGET * rows) / MB;
    const seconds = result.load_s + result.plan_s;
    const row = {
      rows, file_mb: round(fileMb, 1), load_s: result.load_s, plan_s: result.plan_s, rows_per_s: round(rows / seconds, 0),
      peak_rss_mb: peakMb, goal_mb: round(goalMb, 1), within_goal: peakMb <= goalMb ? 'yes' : 'NO',
      retained_heap_mb: result.retained_heap_mb, external_mb: result.external_mb,
    };
    console.log(`\n== e. Memory: loading and planning a ${rows.toLocaleString('en')}-row CSV suite (${fileMb.toFixed(1)} MB) ==`);
    printMethod(
      `a generator writes rows like \`c123,How long do customers have to ask for a refund (question 123)?,days\` under the header id,prompt,expected. ` +
        `A fresh \`node --expose-gc\` child runs loadSuite() then buildPlan(suite, {}) and reads the plan's last unit. ` +
        `Peak RSS is the kernel's VmHWM from /proc/<pid>/status, polled by the parent every 20 ms and read by the child at its end (the higher). ` +
        `Goal: 150 MB + 100 bytes per row. rows/s = rows / (load + plan seconds, performance.now()). retained = heapUsed after gc() minus before; ` +
        `external = Buffers (the file's bytes) after gc().`,
    );
    printTable('e1. loadSuite + buildPlan on a large CSV', Object.keys(row), [row]);
    return { ...row, child: result };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
