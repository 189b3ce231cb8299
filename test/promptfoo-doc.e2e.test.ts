// docs/promptfoo.md: its `npx kbbench` lines run as written (reports/ moved to a temporary folder,
// instant latencies); promptfoo's example configs validated and run through the built CLI, scoring included.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJson, readNdjson, ROOT, runCliInProcess as runCli, tempDir } from './helpers.js';

/** These configs name no knowledge base: the demo's answers them, as the run is told (the demo guard). */
const DEMO_WORKSPACE = join(ROOT, 'suites', 'demo', 'workspace.yaml');

const DOC = join(ROOT, 'docs', 'promptfoo.md');
const reports = join(tempDir(), 'reports');

function docCommands(): { line: string; args: string[]; exit: number }[] {
  const text = readFileSync(DOC, 'utf8');
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((m) => (m[1] ?? '').split('\n'))
    .filter((line) => line.startsWith('npx kbbench '))
    .map((raw) => ({ line: raw, exit: Number(/#.*\bexits (\d)/.exec(raw)?.[1] ?? 0), args: raw.replace(/\s+#.*$/, '').trim().split(/\s+/).slice(2) }));
}

describe('docs/promptfoo.md', () => {
  const commands = docCommands();

  it('shows the side-by-side commands (the extraction works)', () => {
    expect(commands.map((c) => c.args[0])).toEqual(['validate', 'run', 'validate']);
  });

  it.each(commands)('$line', async (command) => {
    const args = command.args.map((word) => (word.startsWith('reports/') ? join(reports, word.slice('reports/'.length)) : word));
    const r = await runCli(args[0] === 'run' ? [...args, '--latency-scale', '0', '--quiet'] : args);
    expect(r.code, `${command.line}\n${r.stdout}\n${r.stderr}`).toBe(command.exit);
    if (command.exit === 2) expect(r.stderr).toMatch(/check type "javascript" is not run by kbbench[\s\S]*check type "python" is not run by kbbench/);
    if (args[0] === 'run') {
      const dir = join(reports, 'promptfoo-getting-started');
      expect(readJson<{ verdict: string }>(join(dir, 'summary.json')).verdict).toBe('pass');
      const results = readNdjson<{ case_id: string; model: string; pass: boolean }>(join(dir, 'results.ndjson'));
      expect(results.map((line) => `${line.case_id} ${line.model}`).sort()).toEqual(
        ['t1.p1', 't1.p2', 't2.p1', 't2.p2'].flatMap((id) => [`${id} gpt-4o`, `${id} gpt-4o-mini`]).sort(),
      );
      expect(results.every((line) => line.pass)).toBe(true);
    }
  }, 120_000);
});

describe('validate --json of a promptfoo config', () => {
  it('lists each request with its checks as read, {{var}} rendered', async () => {
    const r = await runCli(['validate', 'test/fixtures/promptfoo/getting-started/promptfooconfig.yaml', '--json']);
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout) as { models: string[]; requests: { id: string; prompt: string; checks: unknown[] }[] };
    expect(plan.models).toEqual(['gpt-4o-mini', 'gpt-4o']);
    expect(plan.requests).toHaveLength(8);
    expect(plan.requests[0]).toMatchObject({ id: 'case:t1.p1|model:gpt-4o-mini|r1', prompt: 'Convert this English to French: Hello world', checks: [{ type: 'contains', value: 'Bonjour le monde' }] });
  });
});

describe('promptfoo configs run against the embedded service', () => {
  it('simple-test without its code checks: the cases promptfoo would make, llm-rubric graded by --grader-chat', async () => {
    const dir = tempDir();
    const text = readFileSync('test/fixtures/promptfoo/simple-test/promptfooconfig.yaml', 'utf8').replace(/ {6}- type: javascript\n.*\n {6}- type: python\n.*\n/, '');
    writeFileSync(join(dir, 'promptfooconfig.yaml'), text);
    writeFileSync(join(dir, 'prompts.txt'), readFileSync('test/fixtures/promptfoo/simple-test/prompts.txt'));
    const out = join(dir, 'run');
    const r = await runCli(['run', join(dir, 'promptfooconfig.yaml'), '--workspace', DEMO_WORKSPACE, '--grader-chat', 'chatNode-fair-judge-7Qx2L', '--latency-scale', '0', '--out', out, '--quiet']);
    expect([0, 1], r.stderr).toContain(r.code);
    const results = readNdjson<{ case_id: string; model: string; checks: { type: string }[] }>(join(out, 'results.ndjson'));
    // 5 tests × 2 prompts (the prompts file split on ---) × 1 provider.
    expect(results).toHaveLength(10);
    expect(new Set(results.map((line) => line.model))).toEqual(new Set(['gpt-4o-mini']));
    expect(results.find((line) => line.case_id === 't3-check-if-output-is-json.p1')?.checks.map((c) => c.type)).toEqual(['is-json']);
    expect(results.find((line) => line.case_id === 't5-use-llm-to-evaluate-output.p2')?.checks.map((c) => c.type)).toEqual(['judge', 'icontains']);
  }, 120_000);

  it('scores a test by its weighted checks and its threshold, as promptfoo does', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'promptfooconfig.yaml'), [
      "prompts: ['How long is the refund window?']",
      'tests:',
      '  - threshold: 0.5',
      '    assert:',
      '      - { type: contains, value: "30 days", weight: 3, metric: facts }',
      '      - { type: is-json }',
      '      - { type: cost, threshold: 1 }',
    ].join('\n'));
    const out = join(dir, 'run');
    const r = await runCli(['run', join(dir, 'promptfooconfig.yaml'), '--workspace', DEMO_WORKSPACE, '--latency-scale', '0', '--out', out, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    const [line] = readNdjson<{ pass: boolean; score: number; checks: { type: string; pass: boolean; weight?: number; metric?: string }[] }>(join(out, 'results.ndjson'));
    expect(line?.checks.map((c) => [c.type, c.pass, c.weight, c.metric])).toEqual([['contains', true, 3, 'facts'], ['is-json', false, undefined, undefined], ['max-credits', true, undefined, undefined]]);
    expect(line).toMatchObject({ pass: true, score: 0.8 });
  }, 120_000);
});
