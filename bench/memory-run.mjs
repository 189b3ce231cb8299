// Bench: kbbench's memory over a long run, as a whole process. A 100-case suite × --repeat 1,000 and
// × --repeat 10,000 (1,000,000 requests) against an instant server in its own process: peak RSS of
// the kbbench process (GNU time's %M) must stay under 150 MB and flat (the larger run at most 1.15×
// the smaller), reports included (they are written at the end of the same process).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printMethod, printTable, round } from './lib/stats.mjs';
import { load1, runKbbench, startKbServer, writeSuite } from './lib/whole.mjs';

const MB = 1024 * 1024;
const sizeMb = (path) => round(statSync(path).size / MB, 1);

export async function benchMemoryRun({ quick = false } = {}) {
  const repeats = quick ? [100, 1000] : [1000, 10_000];
  const server = await startKbServer('instant');
  const dir = mkdtempSync(join(tmpdir(), 'kbbench-bench-memrun-'));
  try {
    const cases = Array.from({ length: 100 }, (_, i) => ({ id: `q${i}`, prompt: `Question ${i}: how long is the free trial?` }));
    const suite = writeSuite(dir, 'memory-run', cases);
    const rows = [];
    for (const repeat of repeats) {
      const outDir = join(dir, `r${repeat}`);
      const loadBefore = load1();
      const { proc, summary } = await runKbbench({
        suite, origin: server.origin, outDir, flags: ['--no-stream', '--concurrency', '32', '--repeat', String(repeat)], timeoutMs: 3_600_000,
      });
      rows.push({
        requests: summary.totals.requests, peak_rss_mb: round(proc.max_single_rss_mb, 1), wall_s: round(proc.wall_ms / 1000, 1),
        run_req_per_s: round(summary.totals.requests_per_s, 0), cpu_s: round(proc.cpu_s, 1), results_mb: sizeMb(join(outDir, 'results.ndjson')),
        report_html_mb: sizeMb(join(outDir, 'report.html')), summary_json_mb: sizeMb(join(outDir, 'summary.json')), junit_mb: sizeMb(join(outDir, 'junit.xml')),
        load1: loadBefore,
      });
      rmSync(outDir, { recursive: true, force: true });
    }
    const ratio = round(rows[1].peak_rss_mb / rows[0].peak_rss_mb, 3);
    console.log('\n== Memory over a long run (whole kbbench process) ==');
    printMethod(
      `a 100-case suite (no checks) run with --no-stream --concurrency 32 and --repeat ${repeats.join(' then ')} against bench/servers/kb-server.mjs ` +
        'in instant mode (its own process, 127.0.0.1). Peak RSS is GNU time\'s %M of the kbbench process (the server is not counted); the run writes ' +
        'results.ndjson and then every report (summary.json, samples.csv, cases.csv, junit.xml, report.html) in the same process, so the peak covers both. ' +
        `Goal: under 150 MB, and the larger run at most 1.15× the smaller. load1 = the 1-minute load average before the run.`,
    );
    printTable('memory over a run', Object.keys(rows[0]), rows);
    console.log(`ratio of peak RSS (${rows[1].requests} vs ${rows[0].requests} requests): ${ratio}×`);
    return { repeats, rows, ratio };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
