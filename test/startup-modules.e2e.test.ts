// Start-up loads only the command it runs (issue 21, item 4): counted, never timed. Each process runs
// with test/fixtures/module-count/count.mjs preloaded, which lists every module it loads (ES modules
// and CommonJS). Before the change `run --help` loaded 1,033 modules, `validate` 840 and a plain run
// 1,034, 236 of them OpenTelemetry's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, tempDir } from './helpers.js';

const COUNTER = join(ROOT, 'test', 'fixtures', 'module-count', 'count.mjs');

const pathOf = (module: string): string => (module.startsWith('file:') ? fileURLToPath(module) : module.replace(/^cjs:/, ''));

/**
 * What a loaded file holds: itself, and, for a bundle chunk of dist/cli/ (scripts/bundle-cli.mjs),
 * every module esbuild put in it (its `// dist/…` and `// node_modules/…` comments).
 */
function sourcesOf(module: string): string[] {
  const path = pathOf(module);
  if (!path.startsWith(join(ROOT, 'dist')) || !path.endsWith('.js')) return [path];
  const inside = [...readFileSync(path, 'utf8').matchAll(/^\/\/ ((?:dist|node_modules)\/\S+\.[cm]?js)$/gm)].map((m) => join(ROOT, m[1]!));
  return [path, ...inside];
}

/** The files `kbbench args…` loaded (`files`: what a loader counts), the modules in them (`modules`), and its exit code. */
async function modulesOf(args: string[]): Promise<{ code: number | null; files: number; modules: string[] }> {
  const list = join(tempDir('kbbench-modules-'), 'modules.txt');
  const result = await runCli(args, { env: { NODE_OPTIONS: `--import ${COUNTER}`, KBBENCH_TEST_MODULE_LIST: list } });
  const files = readFileSync(list, 'utf8').split('\n').filter((line) => line !== '');
  return { code: result.code, files: files.length, modules: files.flatMap(sourcesOf) };
}

/** The heavy packages only some runs need: live-metrics outputs, the comparison's diff, the TTY bar. */
const OPTIONAL = ['/node_modules/@opentelemetry/', '/node_modules/protobufjs/', '/node_modules/snappyjs/', '/node_modules/diff/', '/node_modules/cli-progress/'];
const loaded = (modules: string[], part: string): string[] => modules.filter((m) => m.includes(part));

describe('start-up loads only the command it runs', () => {
  it('run --help loads the flags, not the session, reports, comparison or outputs', async () => {
    const { code, files, modules } = await modulesOf(['run', '--help']);
    expect(code).toBe(0);
    expect(files).toBeLessThan(150);
    for (const part of ['/dist/session/run-session.js', '/dist/session/drive.js', '/dist/report/', '/dist/compare/', '/node_modules/zod/', '/node_modules/undici/', ...OPTIONAL]) expect(loaded(modules, part)).toEqual([]);
  });

  it('validate loads the suite, plan and workspace readers, not the client, reports or outputs', async () => {
    const { code, files, modules } = await modulesOf(['validate', 'suites/demo.yaml']);
    expect(code).toBe(0);
    expect(files).toBeLessThan(420);
    for (const part of ['/node_modules/undici/', '/dist/report/html/', '/dist/compare/index', ...OPTIONAL]) expect(loaded(modules, part)).toEqual([]);
  });

  it('a plain run (embedded service, no --output, no --baseline, not a TTY) loads none of the optional packages', async () => {
    const out = join(tempDir(), 'run');
    const { code, files, modules } = await modulesOf(['run', 'test/fixtures/e2e/small.yaml', '--models', 'gpt-4o-mini', '--latency-scale', '0', '--quiet', '--out', out]);
    expect(code).toBe(0);
    expect(files).toBeLessThan(800);
    for (const part of ['/dist/compare/index', ...OPTIONAL]) expect(loaded(modules, part)).toEqual([]);
  });
});
