// docs/ci/github-actions.yml, step by step, as the runner's bash runs it (issue 20 item 5): a pull
// request that deletes a question and adds one failing on every model (the pass rate under the
// suite's own threshold) must fail the job; with nothing changed the job passes. `kbbench` is on
// PATH as `npm link` puts it; the service is the embedded one (KBBENCH_BASE_URL unset, as the
// workflow allows); `${{ … }}` expressions are replaced as Actions would.
// The baseline (the guide's step 2 command, run as written) is made once and copied into each
// repository, as a checkout of the commit that added it would bring it; the two jobs then run at
// once (each in its own folder): their time is spent waiting on the embedded service's latencies.
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { demoWorkspaceWithRefundWindowChanged, kbbenchBinDir, ROOT, runWorkflowStep, tempDir, type CliResult } from './helpers.js';

const WORKFLOW = join(ROOT, 'docs', 'ci', 'github-actions.yml');
const WORKSPACE = join(ROOT, 'suites', 'demo', 'workspace.yaml');

interface Step {
  name?: string;
  id?: string;
  run?: string;
  env?: Record<string, string>;
}
const workflow = parse(readFileSync(WORKFLOW, 'utf8')) as { env: Record<string, string>; jobs: { kbbench: { steps: Step[] } } };
const steps = workflow.jobs.kbbench.steps;

/** The suite before and after the pull request: one question deleted, one added that fails on every model. */
const suite = (cases: string): string =>
  `name: ci-faq\nworkspace: ${WORKSPACE}\ntarget: { board_id: winter-frost-CJk4G, chat_id: chatNode-patient-star-4uIJt }\nmodels: [gpt-4o-mini, gpt-4o]\n` +
  `thresholds: { pass_rate: ['rate>=0.9'] }\ncases:\n${cases}`;
const REFUND = '  - { id: refund-window, prompt: How long do customers have to ask for a refund?, assert: [ { contains: 30 days } ] }\n';
const PRICE = '  - { id: team-price, prompt: How much does the Team plan cost?, assert: [ { contains: €29 } ] }\n';
const SOC2 = '  - { id: soc2, prompt: Is Cobalt Desk SOC 2 certified?, assert: [ { icontains: soc 2 type ii } ] }\n';
const FAILING = '  - { id: encryption, prompt: How is customer data encrypted?, assert: [ { contains: ROT13 } ] }\n';

// GitHub's default shell for `run:` is `bash -e {0}`.
const bash = (script: string, cwd: string, env: Record<string, string>, bin: string): Promise<CliResult> => runWorkflowStep(script, cwd, env, bin);

/** `name=value` lines a step appended to $GITHUB_OUTPUT. */
function outputsOf(file: string): Record<string, string> {
  if (!existsSync(file)) return {};
  return Object.fromEntries(readFileSync(file, 'utf8').split('\n').filter((l) => l.includes('=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}

/** Runs the job's steps from "Validate the suite" on, on a pull request; returns each step's result by name. */
async function runJob(cwd: string, bin: string, set: Record<string, string> = { SUITE: 'suite.yaml' }): Promise<Map<string, CliResult>> {
  const outputs: Record<string, Record<string, string>> = {};
  const results = new Map<string, CliResult>();
  const summary = join(cwd, 'step-summary.md');
  const jobEnv = { ...workflow.env, ...set, KBBENCH_REPO: 'x', KBBENCH_REF: 'x' };
  const expand = (text: string): string =>
    text
      .replace(/\$\{\{\s*steps\.(\w+)\.outputs\.(\w+)\s*\}\}/g, (_, id: string, key: string) => outputs[id]?.[key] ?? '')
      .replace(/\$\{\{\s*env\.(\w+)\s*\}\}/g, (_, key: string) => (jobEnv as Record<string, string>)[key] ?? '')
      .replace(/\$\{\{\s*(secrets|vars)\.\w+\s*\}\}/g, '')
      .replace(/\$\{\{\s*github\.token\s*\}\}/g, 'no-token');
  const first = steps.findIndex((s) => s.name?.startsWith('Validate'));
  for (const step of steps.slice(first)) {
    if (!step.run) continue; // `uses:` steps (upload, sticky comment) are GitHub's, not kbbench's
    const output = join(cwd, `output-${results.size}`);
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(v)]));
    const r = await bash(expand(step.run), cwd, { ...jobEnv, ...env, GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary, GITHUB_REPOSITORY: 'o/r' }, bin);
    if (step.id) outputs[step.id] = outputsOf(output);
    results.set(step.name!, r);
  }
  return results;
}

describe('docs/ci/github-actions.yml', () => {
  const bin = kbbenchBinDir();

  /** The repository on main: the suite, and the baseline the guide's step 2 command made of it. */
  let main = '';
  beforeAll(async () => {
    main = tempDir('kbbench-ci-main-');
    writeFileSync(join(main, 'suite.yaml'), suite(REFUND + PRICE + SOC2));
    mkdirSync(join(main, 'kbbench'));
    const base = await bash('kbbench run suite.yaml --repeat 3 --out kbbench/baseline', main, {}, bin);
    expect(base.code, base.stderr).toBe(0);
  }, 120_000);

  /** A checkout of main with its committed baseline (run.json and results.ndjson, as git add keeps them), then the pull request's suite. */
  function repoWithBaseline(prSuite: string): string {
    const cwd = tempDir('kbbench-ci-');
    mkdirSync(join(cwd, 'kbbench', 'baseline'), { recursive: true });
    for (const file of ['run.json', 'results.ndjson']) cpSync(join(main, 'kbbench', 'baseline', file), join(cwd, 'kbbench', 'baseline', file));
    writeFileSync(join(cwd, 'suite.yaml'), prSuite);
    return cwd;
  }

  it('keeps the default gates (no --fail-on that turns some off)', () => {
    const run = steps.find((s) => s.id === 'run')!.run!;
    expect(run).not.toMatch(/--fail-on/);
  });

  it.concurrent('fails the job on a pull request that deletes a question and adds one failing on every model', async ({ expect }) => {
    const cwd = repoWithBaseline(suite(REFUND + PRICE + FAILING));
    const results = await runJob(cwd, bin);
    expect(results.get('Validate the suite (sends nothing)')!.code).toBe(0);
    expect(results.get('Find the baseline')!.stdout).toContain('Baseline: kbbench/baseline (kept in the repository)');
    const run = results.get('Run the suite (and compare with the baseline)')!;
    expect(run.stdout).toContain('kbbench exited 1');
    const compare = JSON.parse(readFileSync(join(cwd, 'reports', 'head', 'compare.json'), 'utf8')) as { verdict: string; missing: unknown[] };
    expect(compare.missing.length).toBeGreaterThan(0);
    expect(readFileSync(join(cwd, 'step-summary.md'), 'utf8')).not.toMatch(/\bPASS\b/);
    expect(results.get('Fail the job on a regression')!.code).toBe(1);
  });

  it.concurrent('passes the job when nothing changed', async ({ expect }) => {
    const cwd = repoWithBaseline(suite(REFUND + PRICE + SOC2));
    const results = await runJob(cwd, bin);
    const run = results.get('Run the suite (and compare with the baseline)')!;
    expect(run.stdout, run.stderr).toContain('kbbench exited 0');
    expect(results.get('Fail the job on a regression')!.code).toBe(0);
  });

  // Issue 31: a CSV suite names no knowledge base, so the workflow's WORKSPACE names it; left empty,
  // the run refuses (exit 2) rather than answer from the demo's documents.
  describe('a CSV suite', () => {
    // The team's own documents: a copy of the demo's where the refund window is 45 days.
    const CSV = 'id,prompt,expected\nrefund-window,How long do customers have to ask for a refund?,45 days\n';
    let ownWorkspace = '';
    let csvMain = '';
    beforeAll(async () => {
      ownWorkspace = demoWorkspaceWithRefundWindowChanged(join(tempDir('kbbench-ci-ws-'), 'ws'));
      csvMain = tempDir('kbbench-ci-csv-main-');
      writeFileSync(join(csvMain, 'questions.csv'), CSV);
      const base = await bash(`kbbench run questions.csv --workspace ${ownWorkspace} --repeat 3 --out kbbench/baseline`, csvMain, {}, bin);
      expect(base.code, base.stderr).toBe(0);
    }, 120_000);

    function csvRepo(): string {
      const cwd = tempDir('kbbench-ci-csv-');
      cpSync(join(csvMain, 'questions.csv'), join(cwd, 'questions.csv'));
      mkdirSync(join(cwd, 'kbbench', 'baseline'), { recursive: true });
      for (const file of ['run.json', 'results.ndjson']) cpSync(join(csvMain, 'kbbench', 'baseline', file), join(cwd, 'kbbench', 'baseline', file));
      return cwd;
    }

    it.concurrent('runs against the documents WORKSPACE names, and gates on its committed baseline', async ({ expect }) => {
      const cwd = csvRepo();
      const results = await runJob(cwd, bin, { SUITE: 'questions.csv', WORKSPACE: ownWorkspace });
      const run = results.get('Run the suite (and compare with the baseline)')!;
      expect(run.stdout, run.stderr).toContain('kbbench exited 0');
      expect(run.stderr).not.toMatch(/demo's documents/);
      expect(existsSync(join(cwd, 'reports', 'head', 'compare.json'))).toBe(true);
    });

    it.concurrent('without WORKSPACE exits 2 naming the two ways out', async ({ expect }) => {
      const results = await runJob(csvRepo(), bin, { SUITE: 'questions.csv' });
      const run = results.get('Run the suite (and compare with the baseline)')!;
      expect(run.stdout).toContain('kbbench exited 2');
      expect(run.stderr).toMatch(/--workspace FILE[\s\S]*--base-url/);
      expect(results.get('Fail the job on a regression')!.code).toBe(1);
    });
  });
});
