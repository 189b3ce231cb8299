// Bench c: memory and time to summarise and report a 100,000-sample results.ndjson, and the append rate
// of results.ndjson itself. Each measurement runs in a fresh child process so heaps do not mix.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { ResultsFile } from '../dist/store/results-file.js';
import { writeRunInfo } from '../dist/store/run-dir.js';
import { printMethod, printTable, round, runChild } from './lib/stats.mjs';
import { seeded, syntheticRunInfo, syntheticSample } from './lib/synthetic.mjs';

const CHILD = fileURLToPath(new URL('./memory-child.mjs', import.meta.url));
const MB = 1024 * 1024;

/** Writes the file with ResultsFile.append, flushed every 32 lines (one event-loop turn of a c=32 run: one write(2)); times it. */
function generate(runDir, count) {
  const random = seeded(42);
  const samples = Array.from({ length: count }, (_, i) => syntheticSample(i, random));
  let stringifyMs = performance.now();
  let bytes = 0;
  for (const sample of samples) bytes += JSON.stringify(sample).length + 1;
  stringifyMs = performance.now() - stringifyMs;
  const file = new ResultsFile(join(runDir, 'results.ndjson'));
  const start = performance.now();
  for (let i = 0; i < samples.length; i++) {
    file.append(samples[i]);
    if (i % 32 === 31) file.flush();
  }
  const appendMs = performance.now() - start;
  const closeStart = performance.now();
  file.close();
  const fsyncMs = performance.now() - closeStart;
  writeRunInfo(runDir, syntheticRunInfo(count));
  const sizeMb = statSync(join(runDir, 'results.ndjson')).size / MB;
  return { count, sizeMb, appendMs, stringifyMs, fsyncMs, approxBytes: bytes };
}

export async function benchMemory({ quick = false } = {}) {
  const count = quick ? 20_000 : 100_000;
  const runDir = mkdtempSync(join(tmpdir(), 'kbbench-bench-mem-'));
  try {
    const gen = generate(runDir, count);
    const appendRows = [
      {
        what: 'ResultsFile.append (JSON.stringify; one write(2) per 32 lines)', lines: count, mb: round(gen.sizeMb, 1), seconds: round(gen.appendMs / 1000, 3),
        lines_per_s: round((count / gen.appendMs) * 1000, 0), mb_per_s: round((gen.sizeMb / gen.appendMs) * 1000, 1), us_per_line: round((gen.appendMs * 1000) / count, 2),
      },
      {
        what: 'of which JSON.stringify alone', lines: count, mb: round(gen.approxBytes / MB, 1), seconds: round(gen.stringifyMs / 1000, 3),
        lines_per_s: round((count / gen.stringifyMs) * 1000, 0), mb_per_s: round((gen.approxBytes / MB / gen.stringifyMs) * 1000, 1), us_per_line: round((gen.stringifyMs * 1000) / count, 2),
      },
    ];
    const rows = [];
    for (const mode of ['read', 'summarise', 'reports']) rows.push(await runChild(CHILD, [mode, runDir], ['--expose-gc']));
    console.log(`\n== c. Memory: ${count.toLocaleString('en')} synthetic samples (${gen.sizeMb.toFixed(1)} MB results.ndjson) ==`);
    printMethod(
      `a seeded generator writes ${count} Samples shaped like a real run's (3 models, 200 cases, ~2% errors, 200-450-char answers) with ResultsFile.append, ` +
        `timed with performance.now() (close() and its fsync, ${round(gen.fsyncMs, 1)} ms, excluded). Then each mode runs in a fresh \`node --expose-gc\` child: ` +
        `read = readResults() only (parse every line); summarise = readResults() into createSummarizer() and finish(); reports = buildReports() ` +
        `(histograms.json, summary.json, samples.csv, summary.csv, junit.xml, report.html). Baseline after gc() once modules are loaded; heap peak polled ` +
        `every 5 ms (a lower bound); RSS peak from getrusage maxRSS; retained = heapUsed after gc() minus baseline.`,
    );
    printTable('c1. results.ndjson append rate', ['what', 'lines', 'mb', 'seconds', 'lines_per_s', 'mb_per_s', 'us_per_line'], appendRows);
    printTable('c2. summarising and reporting from results.ndjson', ['mode', 'samples', 'seconds', 'base_rss_mb', 'peak_heap_growth_mb', 'peak_rss_growth_mb', 'retained_heap_mb', 'max_rss_mb'], rows);
    const reports = rows.find((r) => r.mode === 'reports');
    if (reports?.files_mb) console.log(`  files written (MB): ${Object.entries(reports.files_mb).map(([f, mb]) => `${f} ${mb}`).join(', ')}`);
    return { count, generate: gen, append: appendRows, rows };
  } finally {
    rmSync(runDir, { recursive: true, force: true });
  }
}
