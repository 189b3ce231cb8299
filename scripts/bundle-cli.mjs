// The bin and the embedded service's child as bundles (esbuild), after tsc has built dist/. Node's ES
// module loader pays for every file it resolves and reads: a run loaded ~700 files, the child ~250,
// and that was most of their start-up CPU (BENCHMARKS.md, start-up). Bundled, `kbbench run` starts
// in about two thirds of the CPU, the child in about 60%. The library (dist/index.js) stays tsc's
// files. The bundles never overwrite a file tsc emits (`tsc -b` skips unchanged files, so a bundle in
// its place would be bundled again): src/cli/bin.ts → dist/cli/main.js, src/server/child-main.ts →
// dist/server/main.js. esbuild's `// dist/…` and `// node_modules/…` comments name each module of a
// chunk: test/startup-modules.e2e.test.ts reads them (keep the output unminified). Chunks sit beside main.js in dist/cli/, so every `new URL(…, import.meta.url)` keeps its depth
// (../../package.json, ../server/main.js, ../../suites/); the worker threads' entry is bundled as
// dist/cli/worker-entry.js, where the bundled pool looks for it. Commands stay lazy: each command's
// module (and what only some runs need: outputs, the comparison) is a chunk loaded by its import().
import { readdirSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const dist = new URL('../dist/', import.meta.url);
// CommonJS packages inside an ES module bundle call require() for Node's built-ins.
const banner = { js: "import { createRequire as __kbbenchRequire } from 'node:module'; const require = __kbbenchRequire(import.meta.url);" };
const common = { bundle: true, platform: 'node', format: 'esm', target: 'node20', banner, allowOverwrite: true, logLevel: 'warning', legalComments: 'none' };

for (const file of readdirSync(new URL('cli/', dist))) if (file.startsWith('chunk-')) rmSync(new URL(`cli/${file}`, dist));
await build({
  ...common,
  entryPoints: { main: new URL('cli/bin.js', dist).pathname, 'worker-entry': new URL('session/workers/worker-entry.js', dist).pathname },
  outdir: new URL('cli/', dist).pathname,
  splitting: true,
  chunkNames: 'chunk-[hash]',
});
await build({ ...common, entryPoints: [new URL('server/child-main.js', dist).pathname], outfile: new URL('server/main.js', dist).pathname });
