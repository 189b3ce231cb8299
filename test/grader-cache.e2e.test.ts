// The grader-verdict cache end to end, against a real OpenAI-compatible grader on 127.0.0.1 that
// counts what it is asked: a second run of unchanged model-graded checks asks it nothing, and two
// runs at once share one cache without a torn entry.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { readJson, readNdjson, ROOT, runCli, runCliInProcess, tempDir } from './helpers.js';
import { GRADER_MODEL, sectionOf, startOpenAiGraderServer, type OpenAiGraderServer } from './openai-grader-server.js';

const WORKSPACE = join(ROOT, 'suites/parcel-lockers/workspace.yaml');
const GRADER_KEY = 'sk-grader-cache-secret-7788';

function suiteOf(graderUrl: string, pickupRubric = 'The answer must mention "72 hours".'): string {
  return `name: cached
workspace: ${WORKSPACE}
models: [gpt-4o-mini]
grader: { openai: { base_url: "${graderUrl}", model: ${GRADER_MODEL} } }
cases:
  - id: pickup-window
    prompt: How long do I have to collect my parcel?
    assert:
      - llm-rubric: '${pickupRubric}'
  - id: two-factor
    prompt: Do I need a code to open a locker?
    assert:
      - llm-rubric: { rubric: 'The answer must mention a code.', votes: 3 }
`;
}

const completions = (server: OpenAiGraderServer): number => server.requests.filter((r) => r.path === '/v1/chat/completions').length;
/** The checks of a run, in item order (results are written as answers end). */
const graded = (out: string): Sample['checks'] =>
  readNdjson<Sample>(join(out, 'results.ndjson')).sort((a, b) => a.item_id.localeCompare(b.item_id)).flatMap((s) => s.checks);
const env = { KBBENCH_GRADER_API_KEY: GRADER_KEY };

describe('the grader-verdict cache', () => {
  let grader: OpenAiGraderServer;
  beforeAll(async () => {
    grader = await startOpenAiGraderServer(GRADER_KEY);
    grader.reply((prompt) => JSON.stringify({ pass: /72|code/i.test(sectionOf(prompt, 'ANSWER')), score: 1, reason: 'checked' }));
  });
  afterAll(async () => grader.stop());

  it('a second run of unchanged model-graded checks makes 0 grader calls (cached: true, no tokens spent); a changed rubric asks for that check alone; --no-grader-cache asks all', async () => {
    const dir = tempDir();
    const cache = join(dir, 'cache');
    const suite = join(dir, 'suite.yaml');
    writeFileSync(suite, suiteOf(grader.url));
    const args = (out: string, ...more: string[]): string[] => ['run', suite, '--latency-scale', '0', '--seed', '7', '--out', join(dir, out), '--quiet', '--grader-cache', cache, ...more];

    expect((await runCliInProcess(args('first'), { env })).code).toBe(0);
    const asked = completions(grader);
    expect(asked).toBe(4);
    const first = graded(join(dir, 'first'));
    expect(first.every((c) => c.cached === undefined && c.grader_tokens !== undefined)).toBe(true);

    expect((await runCliInProcess(args('second'), { env })).code).toBe(0);
    expect(completions(grader)).toBe(asked);
    const second = graded(join(dir, 'second'));
    expect(second.every((c) => c.cached === true && c.grader_tokens === undefined)).toBe(true);
    expect(second.map((c) => [c.pass, c.detail, c.grader])).toEqual(first.map((c) => [c.pass, c.detail, c.grader]));
    expect(readJson<{ grading: { tokens: number; cached: number } }>(join(dir, 'second', 'summary.json')).grading).toMatchObject({ tokens: 0, cached: 2 });

    writeFileSync(suite, suiteOf(grader.url, 'The answer must give the pickup window.'));
    expect((await runCliInProcess(args('changed'), { env })).code).toBe(0);
    expect(completions(grader)).toBe(asked + 1);
    // Item order: pickup-window (its rubric changed), then two-factor.
    expect(graded(join(dir, 'changed')).map((c) => c.cached ?? false)).toEqual([false, true]);

    const both = await runCliInProcess(args('both', '--no-grader-cache'), { env });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give --grader-cache DIR or --no-grader-cache, not both');
    const off = ['run', suite, '--latency-scale', '0', '--seed', '7', '--out', join(dir, 'off'), '--quiet', '--no-grader-cache'];
    expect((await runCliInProcess(off, { env })).code).toBe(0);
    expect(completions(grader)).toBe(asked + 1 + 4);

    // The cache holds verdicts under hashes: never the grader's key, nor a header.
    const files = readdirSync(cache, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(readFileSync(join(f.parentPath, f.name), 'utf8')).not.toMatch(/sk-grader|authorization|Bearer/i);
  });

  it('two processes at once share one cache: both finish, every entry reads back whole, and a third run asks nothing', async () => {
    const dir = tempDir();
    const cache = join(dir, 'cache');
    const suite = join(dir, 'suite.yaml');
    writeFileSync(suite, suiteOf(grader.url));
    const args = (out: string): string[] => ['run', suite, '--latency-scale', '0', '--seed', '7', '--out', join(dir, out), '--quiet', '--grader-cache', cache];
    const [a, b] = await Promise.all([runCli(args('a'), { env }), runCli(args('b'), { env })]);
    expect([a.code, b.code]).toEqual([0, 0]);
    for (const f of readdirSync(cache, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())) {
      expect(f.name).toMatch(/^[0-9a-f]{64}\.json$/);
      expect(() => JSON.parse(readFileSync(join(f.parentPath, f.name), 'utf8')) as unknown).not.toThrow();
    }
    const before = completions(grader);
    expect((await runCliInProcess(args('c'), { env })).code).toBe(0);
    expect(completions(grader)).toBe(before);
    expect(graded(join(dir, 'c')).every((c) => c.cached === true)).toBe(true);
  });
});
