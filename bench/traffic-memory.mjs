// Bench: a 10-million-record traffic log replayed (--traffic) with peak RSS under 150 MB: the log is
// checked whole before the run (one streaming pass) and replayed as a stream, so memory follows what
// is in flight and the conversations seen, never the file. 20 s at a high time scale against an
// instant server in its own process; the peak is GNU time's %M of the kbbench process.
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printMethod, printTable, round } from './lib/stats.mjs';
import { load1, PROMPT, runKbbench, startKbServer, writeSuite } from './lib/whole.mjs';

/** `records` lines, 100 a recorded second; one in five a turn of one of 100,000 conversations. */
async function writeLog(path, records) {
  const out = createWriteStream(path);
  for (let i = 0; i < records; i += 1) {
    const conversation = i % 5 === 0 ? `,"conversation":"c${(i / 5) % 100_000}"` : '';
    if (!out.write(`{"at":${(i / 100).toFixed(2)},"prompt":${JSON.stringify(PROMPT)}${conversation}}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

export async function benchTrafficMemory({ quick = false } = {}) {
  const records = quick ? 1_000_000 : 10_000_000;
  const dir = mkdtempSync(join(tmpdir(), 'kbbench-bench-traffic-'));
  const server = await startKbServer('instant');
  try {
    const log = join(dir, 'traffic.jsonl');
    await writeLog(log, records);
    const suite = writeSuite(dir, 'traffic-memory', [{ id: 'c0', prompt: PROMPT }]);
    const loadBefore = load1();
    const { proc, summary } = await runKbbench({
      suite, origin: server.origin, outDir: join(dir, 'run'), timeoutMs: 1_800_000,
      flags: ['--no-stream', '--traffic', log, '--time-scale', '20', '--duration', '20s', '--max-in-flight', '256', '--fail-on', 'none'],
    });
    const row = {
      records, log_mb: round(statSync(log).size / 1024 / 1024, 0), requests: summary.totals.requests, dropped: summary.totals.dropped,
      peak_rss_mb: round(proc.max_single_rss_mb, 1), wall_s: round(proc.wall_ms / 1000, 1), cpu_s: round(proc.cpu_s, 1), load1: loadBefore,
    };
    console.log('\n== Memory of a traffic replay (whole kbbench process) ==');
    printMethod(
      `a ${records.toLocaleString('en')}-record JSONL log (100 records a recorded second, one in five a turn of one of 100,000 conversations) ` +
        'replayed with --traffic --time-scale 20 --duration 20s --no-stream --max-in-flight 256 --fail-on none (starts dropped on a busy machine are counted, not a failure) against bench/servers/kb-server.mjs in instant mode ' +
        '(its own process, 127.0.0.1). The whole log is read once before the run (checked, its shape and think times), then replayed as a stream. ' +
        'Peak RSS is GNU time\'s %M of the kbbench process. Goal: under 150 MB. load1 = the 1-minute load average before the run.',
    );
    printTable('traffic replay memory', Object.keys(row), [row]);
    return row;
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
