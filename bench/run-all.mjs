// Runs every benchmark in one process (servers and memory measurements in child processes), prints
// each table with its method, and writes the figures to reports/bench-latest.json (git-ignored).
//   node bench/run-all.mjs [--quick] [overhead|throughput|memory|memory-run|memory-structures|memory-csv|decoder|peers-throughput|layers|peers-promptfoo|peers-artillery|streams|credits-forecast|history|model-compare|timing-claims|traffic-memory|traffic-precision|peers ...]
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

// Loaded only when chosen, after the check above: some import dist/ internals, the peer benchmarks
// drive only the CLI (node dist/cli/main.js) and install their peers on first use into .bench-cache/.
const BENCHES = {
  overhead: async () => (await import('./overhead.mjs')).benchOverhead,
  throughput: async () => (await import('./throughput.mjs')).benchThroughput,
  memory: async () => (await import('./memory.mjs')).benchMemory,
  'memory-run': async () => (await import('./memory-run.mjs')).benchMemoryRun,
  'memory-structures': async () => (await import('./memory-structures.mjs')).benchMemoryStructures,
  'memory-csv': async () => (await import('./memory-csv.mjs')).benchMemoryCsv,
  'memory-yaml': async () => (await import('./memory-yaml.mjs')).benchMemoryYaml,
  decoder: async () => (await import('./decoder.mjs')).benchDecoder,
  'peers-throughput': async () => (await import('./peers-throughput.mjs')).benchPeersThroughput,
  layers: async () => (await import('./layers.mjs')).benchLayers,
  'peers-promptfoo': async () => (await import('./peers-promptfoo.mjs')).benchPeersPromptfoo,
  'peers-artillery': async () => (await import('./peers-artillery.mjs')).benchPeersArtillery,
  streams: async () => (await import('./streams.mjs')).benchStreams,
  'credits-forecast': async () => (await import('./credits-forecast.mjs')).benchCreditsForecast,
  history: async () => (await import('./history.mjs')).benchHistory,
  'model-compare': async () => (await import('./model-compare.mjs')).benchModelCompare,
  'timing-claims': async () => (await import('./timing-claims.mjs')).benchTimingClaims,
  'traffic-memory': async () => (await import('./traffic-memory.mjs')).benchTrafficMemory,
  'traffic-precision': async () => (await import('./traffic-precision.mjs')).benchTrafficPrecision,
};
/** What runs with no name given, and the `peers` group (minutes, and first-use installs). */
const DEFAULT = ['overhead', 'throughput', 'memory', 'decoder'];
const GROUPS = { peers: ['peers-throughput', 'peers-promptfoo', 'peers-artillery', 'streams'] };
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const chosen = args.filter((a) => !a.startsWith('--')).flatMap((a) => GROUPS[a] ?? [a]);
for (const name of chosen) {
  if (!(name in BENCHES)) {
    console.error(`bench: unknown benchmark ${name}; choose from ${[...Object.keys(BENCHES), ...Object.keys(GROUPS)].join(', ')}`);
    process.exit(2);
  }
}
const names = chosen.length > 0 ? chosen : DEFAULT;

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
  const bench = await BENCHES[name]();
  results[name] = await bench({ quick });
  results[name].bench_seconds = Number(((performance.now() - t0) / 1000).toFixed(1));
}
const totalSeconds = (performance.now() - started) / 1000;

mkdirSync(fileURLToPath(new URL('../reports/', import.meta.url)), { recursive: true });
// Wall-clock time only labels the file; no duration is measured with it.
writeFileSync(OUT, `${JSON.stringify({ generated_at: new Date().toISOString(), quick, machine, total_seconds: Number(totalSeconds.toFixed(1)), results }, null, 2)}\n`);
console.log(`\nAll benchmarks: ${totalSeconds.toFixed(1)} s. Figures written to ${OUT.slice(ROOT.length)}`);
