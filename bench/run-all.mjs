// Runs every benchmark in one process (servers and memory measurements in child processes), prints
// each table with its method, and writes the figures to reports/bench-latest.json (git-ignored).
//   node bench/run-all.mjs [--quick] [overhead|throughput|memory|decoder|memory-csv ...]
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = fileURLToPath(new URL('../reports/bench-latest.json', import.meta.url));

if (!existsSync(fileURLToPath(new URL('../dist/client/index.js', import.meta.url)))) {
  console.error('bench: dist/ is missing; run `npm run build` first (or `npm run bench`, which builds).');
  process.exit(1);
}

// Imported after the check above, since they import dist/.
const { benchOverhead } = await import('./overhead.mjs');
const { benchThroughput } = await import('./throughput.mjs');
const { benchMemory } = await import('./memory.mjs');
const { benchDecoder } = await import('./decoder.mjs');
const { benchMemoryCsv } = await import('./memory-csv.mjs');

const BENCHES = { overhead: benchOverhead, throughput: benchThroughput, memory: benchMemory, decoder: benchDecoder, 'memory-csv': benchMemoryCsv };
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const chosen = args.filter((a) => !a.startsWith('--'));
for (const name of chosen) {
  if (!(name in BENCHES)) {
    console.error(`bench: unknown benchmark ${name}; choose from ${Object.keys(BENCHES).join(', ')}`);
    process.exit(2);
  }
}
const names = chosen.length > 0 ? chosen : Object.keys(BENCHES);

const machine = {
  node: process.version, platform: `${process.platform} ${process.arch}`, cpus: cpus().length,
  cpu_model: cpus()[0]?.model ?? 'unknown', memory_gb: Number((totalmem() / 1024 ** 3).toFixed(1)),
};
console.log(`kbbench benchmarks${quick ? ' (quick)' : ''}: node ${machine.node}, ${machine.cpus} × ${machine.cpu_model}, ${machine.memory_gb} GB`);
console.log('Every figure comes from one run of this script; times are performance.now() on 127.0.0.1.');

const started = performance.now();
const results = {};
for (const name of names) {
  const t0 = performance.now();
  results[name] = await BENCHES[name]({ quick });
  results[name].bench_seconds = Number(((performance.now() - t0) / 1000).toFixed(1));
}
const totalSeconds = (performance.now() - started) / 1000;

mkdirSync(fileURLToPath(new URL('../reports/', import.meta.url)), { recursive: true });
// Wall-clock time only labels the file; no duration is measured with it.
writeFileSync(OUT, `${JSON.stringify({ generated_at: new Date().toISOString(), quick, machine, total_seconds: Number(totalSeconds.toFixed(1)), results }, null, 2)}\n`);
console.log(`\nAll benchmarks: ${totalSeconds.toFixed(1)} s. Figures written to ${OUT.slice(ROOT.length)}`);
