// docs/history.md's `npx kbbench` lines, run as written in a copy of the checkout's suites (runs
// with the embedded service answering at once): the walk-through must keep working.
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HistoryJson } from '../src/history/index.js';
import { ROOT, runCliInProcess as runCli, tempDir } from './helpers.js';

function docCommands(): string[][] {
  const text = readFileSync(join(ROOT, 'docs', 'history.md'), 'utf8');
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((m) => (m[1] ?? '').split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line.startsWith('npx kbbench '))
    .map((line) => line.split(/\s+/).slice(2));
}

const commands = docCommands();
let work = '';

beforeAll(async () => {
  work = tempDir('kbbench-history-docs-');
  cpSync(join(ROOT, 'suites'), join(work, 'suites'), { recursive: true });
  for (const args of commands) {
    const extra = args[0] === 'run' ? ['--latency-scale', '0', '--quiet'] : [];
    const r = await runCli([...args, ...extra], { cwd: work });
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  }
}, 180_000);

describe('docs/history.md', () => {
  it('has only commands this test knows: runs, then history', () => {
    expect(commands.length).toBeGreaterThanOrEqual(2);
    expect(commands.at(-1)![0]).toBe('history');
    for (const args of commands.slice(0, -1)) expect(args[0]).toBe('run');
  });

  it('builds the page and history.json it describes, over every run it made', () => {
    const out = join(work, 'runs');
    expect(existsSync(join(out, 'history.html'))).toBe(true);
    const history = JSON.parse(readFileSync(join(out, 'history.json'), 'utf8')) as HistoryJson;
    expect(history.runs.map((r) => r.label)).toEqual(commands.slice(0, -1).map((args) => args[args.indexOf('--label') + 1]));
    expect(history.change_points).toEqual([]);
    expect(history.series.some((s) => s.metric === 'pass_rate' && s.points.length === commands.length - 1)).toBe(true);
  });

  it('shows the screenshot it names', () => {
    expect(readFileSync(join(ROOT, 'docs', 'history.md'), 'utf8')).toContain('(history.png)');
    expect(existsSync(join(ROOT, 'docs', 'history.png'))).toBe(true);
  });
});
