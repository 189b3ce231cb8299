// The README's library example, extracted as written: type-checked against the published types
// (dist/index.d.ts, what a user of the package gets) with the project's strictness, then run as a
// program. An example with an undefined name, or one the API has drifted from, fails here.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from './helpers.js';

/** The first ```ts block under the README's "As a library" heading. */
function libraryExample(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.split(/^## As a library$/m)[1] ?? '';
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  if (!block?.[1]) throw new Error('README.md: no ```ts block under "## As a library"');
  return block[1];
}

function exec(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: ROOT, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('the README library example', () => {
  it('imports from the package, type-checks against its published types, and runs', async () => {
    const code = libraryExample();
    expect(code).toMatch(/from 'kbbench';/);
    const dir = tempDir('kbbench-readme-lib-');
    // The package's own name resolves to its entry, as `npm install kbbench` would make it.
    // An absolute path: TypeScript takes it (not a file: URL), and Node reads it as one on POSIX.
    const entry = join(ROOT, 'dist', 'index.js');
    writeFileSync(join(dir, 'example.mts'), code.replace(/from 'kbbench';/, `from '${entry}';`));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        // The project's own lib (no DOM, whose 40,000 lines were most of what tsc parsed): Node's globals come from @types/node.
        target: 'ES2022', lib: ['ES2023'], module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noUncheckedIndexedAccess: true,
        outDir: join(dir, 'out'), typeRoots: [join(ROOT, 'node_modules', '@types')], types: ['node'], skipLibCheck: true,
      },
      files: [join(dir, 'example.mts')],
    }));
    const tsc = await exec(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(dir, 'tsconfig.json')]);
    expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);
    const run = await exec(process.execPath, [join(dir, 'out', 'example.mjs')]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^15 requests, pass rate [\d.]+\n$/);
  }, 180_000);
});
