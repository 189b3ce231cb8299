import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';
import { DEMO_WORKSPACE_PATH } from './options.js';
import { DEMO } from './test-helpers.js';

// The child entry is spawned as plain JavaScript, as the harness will: transpile server/ and protocol/
// into a folder inside the package (so zod, yaml and minisearch resolve) instead of needing a build.
const srcDir = fileURLToPath(new URL('..', import.meta.url));
const packageDir = join(srcDir, '..');
let outDir: string;

async function transpileFolder(folder: string): Promise<void> {
  for (const name of await readdir(join(srcDir, folder))) {
    if (!name.endsWith('.ts') || name.endsWith('.test.ts')) continue;
    const source = await readFile(join(srcDir, folder, name), 'utf8');
    // esbuild, as scripts/bundle-cli.mjs builds the bin: typescript's transpileModule cost ~0.8 s of
    // CPU here (loading the compiler, then 40 files), esbuild a few tens of ms.
    const { code: outputText } = await transform(source, {
      loader: 'ts', format: 'esm', target: 'es2022', sourcefile: name,
      tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
    });
    const target = join(outDir, folder, name.replace(/\.ts$/, '.js'));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, outputText, 'utf8');
  }
}

beforeAll(async () => {
  await mkdir(join(packageDir, '.kbbench-tmp'), { recursive: true });
  outDir = await mkdtemp(join(packageDir, '.kbbench-tmp', 'server-main-'));
  await writeFile(join(outDir, 'package.json'), '{"type":"module"}');
  await transpileFolder('server');
  await transpileFolder('protocol');
});
afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

async function startChild(): Promise<{ child: ChildProcessWithoutNullStreams; ready: { url: string; keys: string[] } }> {
  const options = JSON.stringify({ workspacePath: DEMO_WORKSPACE_PATH, latencyScale: 0 });
  const child = spawn(process.execPath, [join(outDir, 'server', 'child-main.js'), options], { stdio: 'pipe' });
  let stderr = '';
  child.stderr.on('data', (piece: Buffer) => (stderr += piece.toString()));
  const lines = createInterface({ input: child.stdout });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`child exited (${String(code)}) before its ready line: ${stderr}`);
  });
  const [line] = (await Promise.race([once(lines, 'line'), exited])) as [string];
  return { child, ready: JSON.parse(line) as { url: string; keys: string[] } };
}

describe('child-main.ts as a child process', () => {
  it('prints one ready line, serves, and exits cleanly on SIGTERM', async () => {
    const { child, ready } = await startChild();
    expect(ready.keys).toContain(DEMO.key);
    expect((await fetch(`${ready.url}/api/boards`, { headers: { 'x-api-key': DEMO.key } })).status).toBe(200);
    const exit = once(child, 'exit');
    child.kill('SIGTERM');
    const [code] = (await exit) as [number | null];
    expect(code).toBe(0);
  });

  it('exits when its stdin closes (the parent went away)', async () => {
    const { child } = await startChild();
    const exit = once(child, 'exit');
    child.stdin.end();
    const [code] = (await exit) as [number | null];
    expect(code).toBe(0);
  });
});
