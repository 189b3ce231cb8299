// One memory measurement in a fresh process (node --expose-gc memory-child.mjs MODE RUN_DIR):
// heap and RSS before, at peak (polled) and after, while summarising or reporting a results.ndjson.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval } from 'node:timers';
import { createSummarizer } from '../dist/metrics/index.js';
import { readResults } from '../dist/store/results-reader.js';
import { buildReports } from '../dist/report/index.js';
import { readRunInfo } from '../dist/store/run-dir.js';

const [mode, runDir] = process.argv.slice(2);
const MB = 1024 * 1024;
const gc = globalThis.gc ?? (() => {});

async function work() {
  if (mode === 'read') {
    let n = 0;
    for await (const sample of readResults(runDir)) n += sample ? 1 : 0;
    return { samples: n };
  }
  if (mode === 'summarise') {
    const results = readResults(runDir);
    const summarizer = createSummarizer();
    for await (const sample of results) summarizer.add(sample);
    const { summary, cases } = summarizer.finish({ run_id: 'bench', status: 'completed' });
    cases.dispose();
    return { samples: summary.totals.requests };
  }
  if (mode === 'reports') {
    const before = new Set(readdirSync(runDir));
    const { summary, files } = await buildReports({ runDir, run: readRunInfo(runDir) });
    const written = Object.fromEntries(files.filter((f) => !before.has(f)).map((f) => [f.split('/').at(-1), Number((statSync(f).size / MB).toFixed(2))]));
    return { samples: summary.totals.requests, files_mb: written };
  }
  throw new Error(`unknown mode ${mode}`);
}

gc();
const base = process.memoryUsage();
let peakHeap = base.heapUsed;
let peakRss = base.rss;
const poll = () => {
  const now = process.memoryUsage();
  peakHeap = Math.max(peakHeap, now.heapUsed);
  peakRss = Math.max(peakRss, now.rss);
};
const timer = setInterval(poll, 5);
const started = performance.now();
const result = await work();
const seconds = (performance.now() - started) / 1000;
clearInterval(timer);
poll();
gc();
const after = process.memoryUsage();
const maxRssMb = process.resourceUsage().maxRSS / 1024;
const resultsMb = statSync(join(runDir, 'results.ndjson')).size / MB;
console.log(
  JSON.stringify({
    mode, ...result, seconds: Number(seconds.toFixed(3)), results_mb: Number(resultsMb.toFixed(1)),
    base_heap_mb: Number((base.heapUsed / MB).toFixed(1)), base_rss_mb: Number((base.rss / MB).toFixed(1)),
    peak_heap_growth_mb: Number(((peakHeap - base.heapUsed) / MB).toFixed(1)),
    peak_rss_growth_mb: Number(((Math.max(peakRss, maxRssMb * MB) - base.rss) / MB).toFixed(1)),
    retained_heap_mb: Number(((after.heapUsed - base.heapUsed) / MB).toFixed(1)),
    max_rss_mb: Number(maxRssMb.toFixed(1)),
  }),
);
