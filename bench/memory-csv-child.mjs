// One CSV-suite measurement in a fresh process (node --expose-gc memory-csv-child.mjs FILE):
// loadSuite + buildPlan on a large CSV, then the time, the heap kept and this process's peak RSS.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { buildPlan, loadSuite } from '../dist/index.js';

const [file] = process.argv.slice(2);
const MB = 1024 * 1024;
const gc = globalThis.gc ?? (() => {});

/** VmHWM: the kernel's own high-water mark of this process's resident set (kB in /proc). */
function vmHwmBytes() {
  const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) * 1024 : process.resourceUsage().maxRSS * 1024;
}

gc();
const base = process.memoryUsage();
const started = performance.now();
const suite = await loadSuite(file);
const loadedAt = performance.now();
const plan = buildPlan(suite, {});
const plannedAt = performance.now();
// Touch the far end, so a lazy list proves it can reach any row.
const last = plan.unitAt(plan.space - 1);
gc();
const after = process.memoryUsage();
console.log(
  JSON.stringify({
    rows: suite.cases.length, items: plan.counts.items, last_id: last?.kind === 'case' ? last.request.case_id : null,
    load_s: Number(((loadedAt - started) / 1000).toFixed(2)), plan_s: Number(((plannedAt - loadedAt) / 1000).toFixed(2)),
    base_rss_mb: Number((base.rss / MB).toFixed(1)), retained_heap_mb: Number(((after.heapUsed - base.heapUsed) / MB).toFixed(1)),
    external_mb: Number((after.external / MB).toFixed(1)), rss_after_mb: Number((after.rss / MB).toFixed(1)),
    self_hwm_mb: Number((vmHwmBytes() / MB).toFixed(1)),
  }),
);
