// Bench guard for issue 21: the per-run structures of a report (everything the summarizer keeps) at
// 100,000 and 1,000,000 samples, each in a fresh `node --expose-gc` child. Goal: the heap after a full
// GC grows by less than 8 MB from the first tenth of the samples to the end, and the 1M run's
// retained heap is within 8 MB of the 100k run's. A structure that keeps something per sample (the
// credits reconciliation kept every answer's balance and item id: 59 MB at 1M) shows here at once.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { printMethod, printTable, round, runChild } from './lib/stats.mjs';

const CHILD = fileURLToPath(new URL('./memory-structures-child.mjs', import.meta.url));
const GOAL_MB = 8;

export async function benchMemoryStructures({ quick = false } = {}) {
  const counts = quick ? [20_000, 200_000] : [100_000, 1_000_000];
  const rows = [];
  for (const count of counts) {
    const dir = mkdtempSync(join(tmpdir(), 'kbbench-bench-structures-'));
    try {
      const r = await runChild(CHILD, [String(count), dir], ['--expose-gc']);
      const growth = Math.max(...r.marks_mb.slice(1), r.after_finish_mb) - r.marks_mb[0];
      rows.push({
        samples: r.samples, reconciled: r.reconciled, heap_first_tenth_mb: round(r.marks_mb[0], 1), heap_end_mb: round(r.marks_mb.at(-1), 1),
        growth_after_first_tenth_mb: round(growth, 2), heap_in_finish_mb: round(r.finish_heap_mb, 1), max_rss_mb: round(r.max_rss_mb, 1),
        add_s: round(r.add_s, 1), finish_s: round(r.finish_s, 2), left_in_dir: readdirSync(dir).length, within_goal: growth < GOAL_MB ? 'yes' : 'NO',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const retainedDelta = round(rows[1].heap_end_mb - rows[0].heap_end_mb, 2);
  console.log('\n== Per-run structures over 1,000,000 samples (summarizer) ==');
  printMethod(
    `createSummarizer({ cases: { spillDir } }) fed ${counts.join(' then ')} synthetic samples (bench/lib/synthetic.mjs: 200 cases × 3 models, ` +
      'every answer reporting credits_used and credits_remaining) in a fresh node --expose-gc child each; heap after a full GC at every tenth, ' +
      `heapUsed right after finish() (before a GC), and after it. Goal: growth after the first tenth under ${GOAL_MB} MB, and the larger run's ` +
      `end heap within ${GOAL_MB} MB of the smaller's; spill files are removed (left_in_dir 0).`,
  );
  printTable('per-run structures', Object.keys(rows[0]), rows);
  console.log(`end heap, ${rows[1].samples} vs ${rows[0].samples} samples: +${retainedDelta} MB (goal < ${GOAL_MB})`);
  return { counts, rows, retained_delta_mb: retainedDelta, within_goal: rows.every((r) => r.within_goal === 'yes') && retainedDelta < GOAL_MB };
}
