// Small helpers shared by the benchmarks: summary statistics, a text table, a child process with a ready line.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { clearTimeout, setTimeout } from 'node:timers';
import { setTimeout as delay } from 'node:timers/promises';

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** n, mean, p50, p99, min, max of a list of numbers. */
export function summarise(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, v) => sum + v, 0) / Math.max(1, sorted.length);
  return { n: sorted.length, mean, p50: percentile(sorted, 50), p99: percentile(sorted, 99), min: sorted[0] ?? Number.NaN, max: sorted.at(-1) ?? Number.NaN };
}

/** A fixed number of decimals, as a number (for JSON) . */
export const round = (value, digits = 3) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : null);

/** Prints rows (objects) as an aligned text table with the given columns. */
export function printTable(title, columns, rows) {
  const cells = rows.map((row) => columns.map((column) => formatCell(row[column])));
  const widths = columns.map((column, i) => Math.max(column.length, ...cells.map((cell) => cell[i].length)));
  const line = (parts) => parts.map((part, i) => (i === 0 ? part.padEnd(widths[i]) : part.padStart(widths[i]))).join('  ');
  console.log(`\n${title}`);
  console.log(line(columns));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of cells) console.log(line(row));
}

function formatCell(value) {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(Math.abs(value) >= 100 ? 1 : Math.abs(value) >= 1 ? 2 : 3);
  return String(value);
}

/** Prints the method of a measurement, wrapped, indented. */
export function printMethod(text) {
  const words = text.split(/\s+/);
  let current = '  method:';
  for (const word of words) {
    if (current.length + word.length + 1 > 100) {
      console.log(current);
      current = '   ';
    }
    current += ` ${word}`;
  }
  console.log(current);
}

/**
 * Starts `node script ...args` and resolves with the JSON object of its first stdout line.
 * The child is ours: stop() ends it by its own handle, never by name.
 */
export async function startChild(script, args = [], nodeArgs = []) {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const ready = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start`)), 20_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line));
    });
    child.once('exit', (code) => reject(new Error(`${script} exited ${code} before it was ready`)));
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, delay(5000)]);
  };
  return { ready, child, lines, stop };
}

/** Runs `node script ...args` to its end and returns the JSON of its last stdout line. */
export function runChild(script, args = [], nodeArgs = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (data) => (out += data));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`${script} ${args.join(' ')} exited ${code}`));
      const last = out.trim().split('\n').at(-1) ?? '';
      try {
        resolve(JSON.parse(last));
      } catch (error) {
        reject(new Error(`${script}: no JSON result line (${error.message})`));
      }
    });
  });
}
