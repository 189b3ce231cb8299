// Suite input that used to be taken silently (issue 9): promptfoo check names in a CSV, labels
// that are not check types, and the CLI's own version.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { CLI, readNdjson, ROOT, tempDir, runCliInProcess } from './helpers.js';

const TARGET = ['--board', 'winter-frost-CJk4G', '--chat', 'chatNode-patient-star-4uIJt'];

describe('CSV check cells', () => {
  it("runs promptfoo's negated and list checks, and `equals: Answer: yes` an expected answer (a bare `Answer: yes` is refused: no cell becomes equals unless it says so)", async () => {
    const out = join(tempDir(), 'run');
    const r = await runCliInProcess(['run', 'test/fixtures/e2e/promptfoo-checks.csv', ...TARGET, '--latency-scale', '0', '--out', out, '--quiet']);
    expect(r.code, r.stderr).toBe(1); // the equals check fails: the answer is not "Answer: yes"
    const byCase = new Map(readNdjson<Sample>(join(out, 'results.ndjson')).map((s) => [s.case_id, s]));
    expect(byCase.get('refund-window')!.checks.map((c) => [c.type, c.pass])).toEqual([['not-icontains', true], ['contains-any', true]]);
    expect(byCase.get('team-price')!.checks.map((c) => [c.type, c.pass])).toEqual([['equals', false], ['icontains-all', true]]);
    expect(byCase.get('team-price')!.checks[0]!.detail).toMatch(/expected to equal "Answer: yes"/);
  });
});

describe('kbbench --version', () => {
  it('prints its own version when installed in a project with another package.json', () => {
    // The layout npm makes: the project's package.json above node_modules/kbbench and its dependencies.
    const project = tempDir('kbbench-installed-');
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-project', version: '1.0.0' }));
    const installed = join(project, 'node_modules', 'kbbench');
    mkdirSync(installed, { recursive: true });
    cpSync(join(ROOT, 'dist'), join(installed, 'dist'), { recursive: true });
    cpSync(join(ROOT, 'package.json'), join(installed, 'package.json'));
    for (const dependency of readdirSync(join(ROOT, 'node_modules'))) {
      if (dependency.startsWith('.')) continue;
      symlinkSync(join(ROOT, 'node_modules', dependency), join(project, 'node_modules', dependency));
    }
    // Symlinks kept as paths, as a real install's node_modules would be.
    const run = spawnSync(process.execPath, ['--preserve-symlinks', '--preserve-symlinks-main', join(installed, 'dist', 'cli', 'main.js'), '--version'], { cwd: project, encoding: 'utf8' });
    const own = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(run.stdout.trim(), run.stderr).toBe(own);
    expect(own).not.toBe('1.0.0');
    // And from the checkout, run from another directory.
    expect(spawnSync(process.execPath, [CLI, '--version'], { cwd: project, encoding: 'utf8' }).stdout.trim()).toBe(own);
  });
});

describe('a mistyped flag', () => {
  it.each([
    ['--concurency', '3', '--concurrency'],
    ['--model', 'gpt-4o', '--models'],
  ])('%s exits 2 with did-you-mean %s, before anything is sent', async (flag, value, near) => {
    // Nothing listens on port 9: had the run started, it would stop with exit 3 (unreachable).
    const r = await runCliInProcess(['run', 'suites/demo.yaml', flag, value, '--base-url', 'http://127.0.0.1:9'], { env: { KBBENCH_API_KEY: 'k-test-0000' } });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`unknown flag ${flag} (did you mean "${near}"?)`);
    expect(r.stdout).toBe('');
  });

  it.each(['--loop=abc', '--stream=1', '--plaintext=yes'])('a switch given a value (%s) exits 2 naming it, before anything is sent (yargs would read it as off)', async (flag) => {
    const r = await runCliInProcess(['run', 'suites/demo.yaml', flag, '--base-url', 'http://127.0.0.1:9'], { env: { KBBENCH_API_KEY: 'k-test-0000' } });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`is a switch: write ${flag.split('=')[0]} alone`);
    expect(r.stdout).toBe('');
  });
});

describe('each command --help', () => {
  const COMMANDS = ['run', 'estimate', 'validate', 'report', 'compare', 'merge', 'serve', 'boards', 'chats', 'doctor'];

  it('estimate lists only the flags it accepts', async () => {
    const help = await runCliInProcess(['estimate', '--help']);
    expect(help.code).toBe(0);
    for (const flag of ['--baseline', '--fail-on', '--markdown', '--resume', '--threshold', '--latency-tolerance']) expect(help.stdout).not.toContain(flag);
    expect(help.stdout).toContain('--sample');
    const run = await runCliInProcess(['run', '--help']);
    for (const flag of ['--baseline', '--fail-on', '--markdown', '--resume', '--threshold']) expect(run.stdout).toContain(flag);
    // And what it does not list, it refuses (exit 2, nothing sent).
    const refused = await runCliInProcess(['estimate', 'suites/demo.yaml', '--baseline', 'reports/x', '--base-url', 'http://127.0.0.1:9'], { env: { KBBENCH_API_KEY: 'k-test-0000' } });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('unknown flag --baseline');
  });

  it('every command and the top level show examples', async () => {
    for (const command of [...COMMANDS, undefined]) {
      const r = await runCliInProcess(command === undefined ? ['--help'] : [command, '--help']);
      expect(r.code, command).toBe(0);
      expect(r.stdout, command).toMatch(/Examples:\n\s+(KBBENCH_API_KEY=\S+ )?kbbench /);
    }
  });
});

describe('the console after a run', () => {
  it('lists the first 10 failed items with why, says where the rest are, and prints a threshold label once', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCliInProcess(['run', 'test/fixtures/e2e/failing.yaml', '--latency-scale', '0', '--out', out, '--threshold', 'latency_ms{model:gpt-4o-mini}=p(95)<100000']);
    expect(r.code, r.stderr).toBe(1);
    const after = r.stdout.slice(r.stdout.indexOf('failed items: 12 (the first 10)'));
    expect(after).not.toBe(r.stdout); // the list follows the table
    expect(r.stdout.indexOf('failed items')).toBeGreaterThan(r.stdout.indexOf('latency p95'));
    const rows = after.split('\n').filter((line) => /^ {2}case:/.test(line));
    expect(rows).toHaveLength(10);
    expect(after).toMatch(/case:refund-45\|model:gpt-4o\|r1\s+gpt-4o\s+contains: expected to contain "45 days"/);
    expect(after).toContain(`every failed item: ${out}/samples.csv`);
    expect(r.stdout).toContain('latency_ms{model:gpt-4o-mini} p(95)<100000');
    expect(r.stdout).not.toContain('{model:gpt-4o-mini}{model:gpt-4o-mini}');
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { failures: { total: number; shown: unknown[] } };
    expect(summary.failures.total).toBe(12);
    expect(summary.failures.shown).toHaveLength(10);
  });
});
