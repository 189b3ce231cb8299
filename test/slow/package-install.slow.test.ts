// The package as a user gets it (issue 31's "Done when"): `npm pack`, installed into an empty folder
// with install scripts off, then `kbbench init`, a run of what init wrote (the project's own
// documents answer, not the demo's), a baseline rerun, the init workflow's commands, the shipped
// demo found from that folder, and a CSV suite naming no knowledge base refused (exit 2).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT, runWorkflowStep, tempDir, type CliResult } from '../helpers.js';

const project = tempDir('kbbench-package-');
const bin = join(project, 'node_modules', '.bin');
const kbbench = (args: string, env: Record<string, string> = {}): Promise<CliResult> => runWorkflowStep(`kbbench ${args}`, project, env, bin, []);

describe('the npm package, installed', () => {
  let files: string[] = [];
  beforeAll(() => {
    // Scripts off: dist/ is built before the tests; `npm pack` would run prepare (a build) otherwise.
    const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', project], { cwd: ROOT, encoding: 'utf8' })) as { filename: string; files: { path: string }[] }[];
    files = packed[0]!.files.map((f) => f.path);
    execFileSync('npm', ['install', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', join(project, packed[0]!.filename)], { cwd: project, stdio: 'pipe' });
  }, 300_000);

  it('carries the built CLI, the LICENSE and the docs the README links, and no source', () => {
    expect(files).toContain('dist/cli/main.js');
    expect(files).toContain('LICENSE');
    for (const link of readFileSync(join(ROOT, 'README.md'), 'utf8').matchAll(/\]\(((?:docs\/|BENCHMARKS|bench\/)[^)#]+)/g)) expect(files).toContain(link[1]);
    expect(files.some((f) => f.startsWith('src/') || f.endsWith('.map'))).toBe(false);
    // The README says how many files the tarball holds: kept within 15% of what npm packs.
    const stated = /tarball of ([\d,]+) files/.exec(readFileSync(join(ROOT, 'README.md'), 'utf8'))?.[1];
    expect(stated, 'the README states the tarball\'s file count').toBeDefined();
    expect(Math.abs(files.length / Number(stated!.replace(/,/g, '')) - 1)).toBeLessThan(0.15);
  });

  it('runs init, its suite on its own documents, a baseline rerun and its CI commands', async () => {
    const init = await kbbench('init');
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('kbbench run suite.yaml --out baselines/main');
    expect((await kbbench('init')).code).toBe(2);

    const first = await kbbench('run suite.yaml --out baselines/main');
    expect(first.code, first.stderr + first.stdout).toBe(0);
    expect(first.stderr).not.toContain("demo's documents");
    const run = JSON.parse(readFileSync(join(project, 'baselines', 'main', 'run.json'), 'utf8')) as { knowledge_base: { demo?: boolean } };
    expect(run.knowledge_base.demo).toBeUndefined();
    const again = await kbbench('run suite.yaml --baseline baselines/main');
    expect(again.code, again.stderr + again.stdout).toBe(0);

    const workflow = parse(readFileSync(join(project, '.github', 'workflows', 'kbbench.yml'), 'utf8')) as { env: Record<string, string>; jobs: { kbbench: { steps: { name?: string; run?: string }[] } } };
    for (const step of workflow.jobs.kbbench.steps.filter((s) => s.run && !s.run.includes('npm install'))) {
      const result = await runWorkflowStep(step.run!, project, workflow.env, bin);
      expect(result.code, `${step.name}: ${result.stderr}${result.stdout}`).toBe(0);
    }
    expect(readFileSync(join(project, 'reports', 'head', 'compare.md'), 'utf8')).toMatch(/\| 18 \| 0 \| 0 \|/);
  }, 240_000);

  it('finds the shipped demo from any folder, and refuses a CSV that names no knowledge base', async () => {
    const demo = await kbbench('validate demo');
    expect(demo.code, demo.stderr).toBe(0);
    const csv = await kbbench('run questions.csv');
    expect(csv.code).toBe(2);
    expect(csv.stderr).toMatch(/names no knowledge base[\s\S]*--workspace FILE[\s\S]*--base-url/);
    const named = await kbbench('run questions.csv --workspace workspace.yaml --models gpt-4o-mini --out reports/csv');
    expect(named.code, named.stderr + named.stdout).toBe(0);
  }, 120_000);
});
