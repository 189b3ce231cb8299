// docs/ci.md section 8, its workflow step as the runner's bash runs it, in a git repository whose
// pull request changes a check (the baseline's answers judged again: no run), a question (the
// regrade finds it unanswered, exit 3: asked again) or a document (asked again, no regrade).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { RegradeInfo } from '../src/domain/run.js';
import { kbbenchBinDir, readJson, ROOT, runWorkflowStep, tempDir } from './helpers.js';

const PAGE = readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8');

/** The `run:` of section 8's workflow step, as written on the page. */
function stepScript(): string {
  const section = PAGE.slice(PAGE.indexOf('## 8.'));
  const block = /```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const [step] = parse(block) as { run: string }[];
  return step!.run;
}

const CASES = `  - { id: refund-window, prompt: How long do customers have to ask for a refund?, assert: [ { contains: 30 days } ] }
  - { id: team-price, prompt: How much does the Team plan cost?, assert: [ { contains: €29 } ] }
`;
const suite = (cases: string): string =>
  `name: ci-regrade\nworkspace: kb/workspace.yaml\ntarget: { board_id: winter-frost-CJk4G, chat_id: chatNode-patient-star-4uIJt }\nmodels: [gpt-4o-mini]\ncases:\n${cases}`;

const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });

describe('docs/ci.md: regrade when only checks changed, ask again when documents did', () => {
  const bin = kbbenchBinDir();
  let main = '';

  beforeAll(async () => {
    main = tempDir('kbbench-ci-regrade-');
    cpSync(join(ROOT, 'suites', 'demo'), join(main, 'kb'), { recursive: true });
    writeFileSync(join(main, 'suite.yaml'), suite(CASES));
    const base = await runWorkflowStep('kbbench run suite.yaml --latency-scale 0 --out kbbench/baseline --quiet', main, {}, bin);
    expect(base.code, base.stderr).toBe(0);
    git(main, 'init', '-q', '-b', 'main');
    git(main, 'add', '.');
    git(main, 'commit', '-qm', 'baseline');
    // The pull request's checkout knows its base as origin/<base ref>.
    git(main, 'update-ref', 'refs/remotes/origin/main', 'HEAD');
  }, 60_000);

  /** A pull request: the repository copied, `change` applied, the step run; its exit code and the head run's run.json. */
  async function pullRequest(name: string, change: (dir: string) => void): Promise<{ code: string; regrade: RegradeInfo | undefined }> {
    const dir = join(tempDir(`kbbench-pr-${name}-`), 'repo');
    cpSync(main, dir, { recursive: true });
    change(dir);
    const output = join(dir, 'output');
    const env = { SUITE: 'suite.yaml', BASELINE_DIR: 'kbbench/baseline', HEAD_DIR: 'reports/head', KB_DOCS: 'kb', GITHUB_BASE_REF: 'main', GITHUB_OUTPUT: output };
    const r = await runWorkflowStep(stepScript(), dir, env, bin);
    expect(r.code, r.stderr).toBe(0);
    const code = /code=(\d+)/.exec(readFileSync(output, 'utf8'))?.[1] ?? '';
    const run = readJson<{ regrade?: RegradeInfo }>(join(dir, 'reports', 'head', 'run.json'));
    expect(existsSync(join(dir, 'reports', 'head.md'))).toBe(true);
    return { code, regrade: run.regrade };
  }

  it('a check changed: the baseline\'s answers are judged again (no run), and the check that now fails fails the step', async () => {
    const pr = await pullRequest('check', (dir) => writeFileSync(join(dir, 'suite.yaml'), suite(CASES.replace('contains: 30 days', 'contains: 31 days'))));
    expect(pr.code).toBe('1');
    expect(pr.regrade).toMatchObject({ judged_again: 2, question_changed: 0, never_asked: 0 });
  }, 60_000);

  it('a question added: the regrade finds it unanswered (exit 3) and the suite is asked again', async () => {
    const added = '  - { id: soc2, prompt: Is Cobalt Desk SOC 2 certified?, assert: [ { icontains: soc 2 type ii } ] }\n';
    const pr = await pullRequest('question', (dir) => writeFileSync(join(dir, 'suite.yaml'), suite(CASES + added)));
    expect(pr.code).toBe('0');
    expect(pr.regrade).toBeUndefined();
  }, 60_000);

  it('a document changed: asked again without a regrade', async () => {
    const pr = await pullRequest('document', (dir) => {
      const refunds = join(dir, 'kb', 'docs', 'refunds.md');
      writeFileSync(refunds, `${readFileSync(refunds, 'utf8')}\nRefunds are sent by bank transfer.\n`);
    });
    expect(pr.code).toBe('0');
    expect(pr.regrade).toBeUndefined();
  }, 60_000);
});
