// One measurement of memory-structures.mjs in a fresh process (node --expose-gc ... N SPILL_DIR): the
// summarizer (every per-run structure of a report: request stats, case table, credits and their
// reconciliation, failures, tags, graders, timeline) fed N synthetic samples; the heap after a full
// GC at each tenth, then during finish() (polled) and after it. Prints one JSON line.
import { performance } from 'node:perf_hooks';
import { createSummarizer } from '../dist/metrics/index.js';
import { seeded, syntheticSample } from './lib/synthetic.mjs';

const [countText, spillDir] = process.argv.slice(2);
const total = Number(countText);
const MB = 1024 * 1024;
const heapMb = () => {
  globalThis.gc();
  return process.memoryUsage().heapUsed / MB;
};
const random = seeded(21);
const summarizer = createSummarizer({ cases: { spillDir } });
const base = heapMb();
const marks = [];
const t0 = performance.now();
for (let i = 0; i < total; i += 1) {
  summarizer.add(syntheticSample(i, random));
  if ((i + 1) % (total / 10) === 0) marks.push(heapMb());
}
const addS = (performance.now() - t0) / 1000;
let finishPeak = 0;
const t1 = performance.now();
const result = summarizer.finish({ run_id: 'bench', status: 'completed' });
const finishS = (performance.now() - t1) / 1000;
finishPeak = process.memoryUsage().heapUsed / MB;
const afterFinish = heapMb();
result.cases.dispose();
console.log(JSON.stringify({
  samples: result.summary.totals.requests, reconciled: result.summary.credits.reconciliation.answers,
  base_mb: base, marks_mb: marks, finish_heap_mb: finishPeak, after_finish_mb: afterFinish, add_s: addS, finish_s: finishS,
  rss_mb: process.memoryUsage().rss / MB, max_rss_mb: process.resourceUsage().maxRSS / 1024,
}));
