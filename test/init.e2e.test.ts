// `kbbench init` as a team starts (issue 31): the project it writes runs on its own documents, is
// never overwritten, and its CI workflow's commands pass as the runner's bash runs them — with the
// suite it wrote, and with its CSV alone once WORKSPACE names the documents (without: exit 2).
// test/slow/package-install.slow.test.ts does the same from the packed tarball.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CLI, runCliInProcess, runWorkflowStep, tempDir, type CliResult } from './helpers.js';

interface Workflow {
  env: Record<string, string>;
  jobs: { kbbench: { steps: { name?: string; run?: string; env?: Record<string, string> }[] } };
}

const bin = tempDir('kbbench-bin-');
writeFileSync(join(bin, 'kbbench'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
chmodSync(join(bin, 'kbbench'), 0o755);

/** The workflow's kbbench steps (not `npm install`), `${{ … }}` as Actions expands them with no variable set. */
async function runSteps(project: string, set: Record<string, string>): Promise<CliResult[]> {
  const workflow = parse(readFileSync(join(project, '.github', 'workflows', 'kbbench.yml'), 'utf8')) as Workflow;
  const results: CliResult[] = [];
  for (const step of workflow.jobs.kbbench.steps.filter((s) => s.run && !s.run.includes('npm install'))) {
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, v.replace(/\$\{\{[^}]*\}\}/g, '')]));
    results.push(await runWorkflowStep(step.run!, project, { ...workflow.env, ...env, ...set }, bin));
  }
  return results;
}

/** A project `kbbench init` wrote, and its baseline committed as the workflow's comment says: `run SUITE --out baselines/main`. */
async function initWithBaseline(suite: string): Promise<string> {
  const project = tempDir('kbbench-init-ci-');
  // A child process, not the in-process CLI: these tests run concurrently, and the in-process CLI enters its cwd (one process, one cwd).
  const init = await runWorkflowStep('kbbench init', project, {}, bin);
  expect(init.code, init.stderr).toBe(0);
  const base = await runWorkflowStep(`kbbench run ${suite} --out baselines/main`, project, {}, bin);
  expect(base.code, base.stderr).toBe(0);
  return project;
}

describe('kbbench init', () => {
  it('writes a project whose suite passes on its own documents, and never overwrites', async () => {
    const cwd = tempDir('kbbench-init-');
    const init = await runCliInProcess(['init', 'my-kb'], { cwd });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('kbbench run my-kb/suite.yaml --out my-kb/baselines/main');
    const again = await runCliInProcess(['init', 'my-kb'], { cwd });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/suite\.yaml/);
    const run = await runCliInProcess(['run', 'my-kb/suite.yaml', '--latency-scale', '0', '--out', 'my-kb/reports/first', '--quiet'], { cwd });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(run.stderr).not.toContain("demo's documents");
  }, 60_000);

  it.concurrent('its workflow passes on the suite it wrote, against a committed baseline', async ({ expect }) => {
    const project = await initWithBaseline('suite.yaml');
    for (const r of await runSteps(project, {})) expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(readFileSync(join(project, 'reports', 'head', 'compare.md'), 'utf8')).toMatch(/regress/i);
  }, 120_000);

  it.concurrent('its workflow runs the CSV alone when WORKSPACE names the documents, and refuses it without', async ({ expect }) => {
    const project = await initWithBaseline('questions.csv --workspace workspace.yaml');
    const named = await runSteps(project, { SUITE: 'questions.csv', WORKSPACE: 'workspace.yaml' });
    for (const r of named) expect(r.code, r.stderr + r.stdout).toBe(0);
    const unnamed = await runSteps(project, { SUITE: 'questions.csv', HEAD_DIR: 'reports/unnamed' });
    expect(unnamed.at(-1)!.code).toBe(2);
    expect(unnamed.at(-1)!.stderr).toMatch(/names no knowledge base[\s\S]*--workspace FILE/);
  }, 120_000);

  // Issue 31's report: "answer starts 'According to the knowledge base: …'" while the €350 that
  // disagreed with the expected €300 was further on. The failure shows the sentence holding it.
  it('a figure changed in the documents fails with the sentence holding it, in the console, samples.csv and report.html', async () => {
    const cwd = tempDir('kbbench-init-figure-');
    expect((await runCliInProcess(['init'], { cwd })).code).toBe(0);
    const rentals = join(cwd, 'docs', 'rentals.md');
    writeFileSync(rentals, readFileSync(rentals, 'utf8').replace('e-bike is €300', 'e-bike is €350'));
    const r = await runCliInProcess(['run', 'suite.yaml', '--latency-scale', '0', '--out', 'run'], { cwd });
    expect(r.code).toBe(1);
    const nearest = 'expected to contain "€300"; nearest part "…The deposit for an e-bike is €350;';
    expect(r.stdout).toContain(nearest);
    expect(readFileSync(join(cwd, 'run', 'samples.csv'), 'utf8')).toContain(nearest.replaceAll('"', '""'));
    expect(readFileSync(join(cwd, 'run', 'report.html'), 'utf8')).toContain(nearest.replaceAll('"', '&quot;'));
  }, 60_000);
});
