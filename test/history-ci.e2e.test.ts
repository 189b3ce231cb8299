// docs/ci/history.yml's own shell: the steps marked "(tested)" run here, as written, with a local
// kbbench on PATH, twice (two commits), and build the page the workflow publishes.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HistoryJson } from '../src/history/index.js';
import { CLI, ROOT, tempDir } from './helpers.js';

interface Step {
  name?: string;
  run?: string;
}

const workflow = parse(readFileSync(join(ROOT, 'docs', 'ci', 'history.yml'), 'utf8')) as { env: Record<string, string>; jobs: { history: { steps: Step[] } } };
const tested = workflow.jobs.history.steps.filter((s) => s.name?.endsWith('(tested)'));

let work = '';
let runsDir = '';

function runStep(step: Step, sha: string): void {
  const bin = join(work, 'bin');
  const env = {
    PATH: `${bin}:${process.env.PATH ?? ''}`,
    HOME: work,
    ...workflow.env,
    // The embedded service answering at once: the workflow's flags for `run`, as a user would add them.
    KBBENCH_RUN_FLAGS: '--latency-scale 0',
    GITHUB_SHA: sha,
    GITHUB_EVENT_NAME: 'schedule',
    GITHUB_REF_NAME: 'main',
  };
  const r = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', step.run!], { cwd: work, env, encoding: 'utf8', timeout: 120_000 });
  expect(r.status, `${step.name}: ${r.stderr}`).toBe(0);
}

beforeAll(() => {
  work = tempDir('kbbench-history-ci-');
  cpSync(join(ROOT, 'suites'), join(work, 'suites'), { recursive: true });
  mkdirSync(join(work, 'bin'));
  // `npm link` puts kbbench on PATH in the workflow; here a shim to the built CLI does.
  writeFileSync(join(work, 'bin', 'kbbench'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(join(work, 'bin', 'kbbench'), 0o755);
  runsDir = join(work, workflow.env.RUNS_DIR!);
  mkdirSync(runsDir);
  for (const sha of ['a'.repeat(40), 'b'.repeat(40)]) for (const step of tested) runStep(step, sha);
}, 240_000);

describe('docs/ci/history.yml', () => {
  it('has the three tested steps: run, keep small, build the page', () => {
    expect(tested.map((s) => s.name)).toEqual(['Run the suite (tested)', 'Keep the run small (tested)', 'Build history.html (tested)']);
  });

  it('keeps each run with what history reads and links, without the large files', () => {
    const runs = readdirSync(join(runsDir, 'runs'));
    expect(runs).toHaveLength(2);
    for (const run of runs) {
      const files = readdirSync(join(runsDir, 'runs', run)).sort();
      expect(files).toEqual(expect.arrayContaining(['run.json', 'summary.json', 'report.html', 'cases.csv']));
      expect(files).not.toContain('results.ndjson');
      expect(files).not.toContain('samples.csv');
    }
  });

  it('builds history.html and history.json beside the runs, commits and labels recorded', () => {
    expect(existsSync(join(runsDir, 'history.html'))).toBe(true);
    const history = JSON.parse(readFileSync(join(runsDir, 'history.json'), 'utf8')) as HistoryJson;
    expect(history.runs.map((r) => r.commit)).toEqual(['a'.repeat(40), 'b'.repeat(40)]);
    expect(history.runs.map((r) => r.label)).toEqual(['schedule main', 'schedule main']);
    for (const r of history.runs) expect(existsSync(join(runsDir, decodeURIComponent(r.report!)))).toBe(true);
  });
});
