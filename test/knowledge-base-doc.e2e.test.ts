// Every `npx kbbench` command of docs/your-knowledge-base.md, run in order as written, with only what
// a test must change: `reports/` moved to a temporary folder, instant latencies, and the OpenAI-compatible
// grader's address filled in (a real HTTP server on 127.0.0.1). A trailing `# exits N` is the code expected.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson, ROOT, runCliInProcess as runCli, tempDir } from './helpers.js';
import { startOpenAiGraderServer, type OpenAiGraderServer } from './openai-grader-server.js';

const DOC = join(ROOT, 'docs', 'your-knowledge-base.md');
const GRADER_KEY = 'sk-doc-grader-key-0001';

interface DocCommand {
  line: string;
  env: string[];
  args: string[];
  exit: number;
}

function docCommands(): DocCommand[] {
  const text = readFileSync(DOC, 'utf8');
  const blocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  return blocks
    .flatMap((block) => block.split('\n'))
    .filter((line) => /(^|\s)npx kbbench /.test(line))
    .map((raw) => {
      const exit = Number(/#.*\bexits (\d)/.exec(raw)?.[1] ?? 0);
      const line = raw.replace(/\s+#.*$/, '').trim();
      const words = line.split(/\s+/);
      const at = words.indexOf('npx');
      return { line, env: words.slice(0, at), args: words.slice(at + 2), exit };
    });
}

let grader: OpenAiGraderServer;
const reports = join(tempDir(), 'reports');

beforeAll(async () => {
  grader = await startOpenAiGraderServer(GRADER_KEY, 'llama3');
});
afterAll(async () => grader?.stop());

function adapt(command: DocCommand): { args: string[]; env: Record<string, string> } {
  const args = command.args.map((word) => (word.startsWith('reports/') ? join(reports, word.slice('reports/'.length)) : word === 'http://127.0.0.1:8000/v1' ? grader.url : word));
  const env: Record<string, string> = command.env.some((e) => e.startsWith('KBBENCH_GRADER_API_KEY=')) ? { KBBENCH_GRADER_API_KEY: GRADER_KEY } : {};
  return { args: args[0] === 'run' ? [...args, '--latency-scale', '0'] : args, env };
}

describe('docs/your-knowledge-base.md', () => {
  const commands = docCommands();

  it('shows the walk-through commands (the extraction works)', () => {
    expect(commands.map((c) => c.args[0])).toEqual(['validate', 'run', 'run', 'compare', 'run', 'grader-check']);
  });

  // In order: compare reads the two runs made before it.
  it.each(commands)('$line', async (command) => {
    const adapted = adapt(command);
    const r = await runCli(adapted.args, { env: adapted.env });
    expect(r.code, `${command.line}\n${r.stdout}\n${r.stderr}`).toBe(command.exit);
    expect(`${r.stdout}${r.stderr}`).not.toContain(GRADER_KEY);
    // The grader failed on every answer of the second run: not one of them is a regression.
    if (command.args[0] === 'compare') expect(r.stdout).toMatch(/ 0 regressions /);
    if (command.args[0] === 'grader-check') expect(r.stdout).toMatch(/Cohen's kappa/);
    if (command.line.includes('--judge-fault-rate')) {
      const summary = readJson<{ verdict: string; totals: { not_judged: number } }>(join(reports, 'parcels-2', 'summary.json'));
      expect(summary.verdict).toBe('incomplete');
      expect(summary.totals.not_judged).toBeGreaterThan(0);
    }
  }, 180_000);
});
