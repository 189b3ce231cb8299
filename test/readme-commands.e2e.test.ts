// Every command of the README's quick start is run here, as written, with only what a test must
// change (a temporary --out, instant latencies, a 60 s load test or ramp shortened, placeholders filled).
// A new README line this file does not know fails the test, so the README cannot drift from the CLI.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, startServe, tempDir, type ServeHandle } from './helpers.js';

const DEMO_BOARD = 'winter-frost-CJk4G';
const DEMO_CHAT = 'chatNode-patient-star-4uIJt';

/** Pages whose `npx kbbench …` lines run here: the README and the user guides that show commands. */
const PAGES = ['README.md', 'docs/comparing-models.md', 'docs/load-testing.md'];

/** The `npx kbbench …` lines of a page's code blocks, without their comments. */
function readmeCommands(page = 'README.md'): string[] {
  const readme = readFileSync(join(ROOT, page), 'utf8');
  const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  return blocks
    .flatMap((block) => block.split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => /(^|\s)npx kbbench /.test(line));
}

/** The words after `npx kbbench`, and an env prefix such as `KBBENCH_API_KEY=…`. */
function split(line: string): { env: string[]; args: string[] } {
  const words = line.split(/\s+/);
  const at = words.indexOf('npx');
  return { env: words.slice(0, at), args: words.slice(at + 2) };
}

let serve: ServeHandle;
let baselineDir: string;

beforeAll(async () => {
  serve = await startServe(['--latency-scale', '0']);
  baselineDir = join(tempDir(), 'baseline');
  const r = await runCli(['run', 'suites/demo.yaml', '--latency-scale', '0', '--out', baselineDir, '--quiet']);
  expect(r.code, r.stderr).toBe(0);
}, 120_000);

afterAll(async () => {
  await serve?.stop();
});

/** A short ramp in place of a README ramp (`--stages`, or a suite's own `load:` block): seconds, not a minute. */
const SHORT_STAGES = '1s:2,1s:4';
const SHAPE_FLAGS = ['--rate', '--stages', '--concurrency-stages'];

function suiteHasLoadBlock(suite: string | undefined): boolean {
  const path = suite === undefined ? '' : join(ROOT, suite);
  return /\.ya?ml$/.test(path) && existsSync(path) && /^load:/m.test(readFileSync(path, 'utf8'));
}

/** The README line as the test runs it; undefined for a line this file does not know. */
function adapt(line: string): { args: string[]; env: Record<string, string> } | undefined {
  const { env, args } = split(line);
  const [command] = args;
  const out = ['--out', join(tempDir(), 'run')];
  if (command === 'run' && env.some((e) => e.startsWith('KBBENCH_API_KEY='))) {
    // The live service, played by `kbbench serve`; faq.csv is the user's own CSV, here the demo's.
    const live = args.map((word) => ({ 'faq.csv': 'suites/demo.csv', 'https://…': serve.url, B: DEMO_BOARD, C: DEMO_CHAT })[word] ?? word);
    return { args: [...live, ...out], env: { KBBENCH_API_KEY: serve.key } };
  }
  if (command === 'run') {
    const local = args.map((word, i) => (args[i - 1] === '--duration' ? '2s' : args[i - 1] === '--stages' ? SHORT_STAGES : args[i - 1] === '--concurrency-stages' ? '1s:2,1s:1' : args[i - 1] === '--baseline' ? baselineDir : word));
    const ramp = suiteHasLoadBlock(args[1]) && !args.some((word) => SHAPE_FLAGS.includes(word)) ? ['--stages', SHORT_STAGES] : [];
    // A closed loop that cycles until its stages end sends as fast as answers come: with instant
    // answers it would spend past the demo's `credits_used sum<=5`, so it keeps a little latency.
    const scale = args.includes('--concurrency-stages') ? '0.2' : '0';
    return { args: [...local, ...ramp, '--latency-scale', scale, ...out], env: {} };
  }
  if (command === 'estimate') {
    // `--from reports/demo-run`: a run already made, here the one made before all.
    const local = args.map((word, i) => (args[i - 1] === '--from' ? baselineDir : word));
    return { args: [...local, '--latency-scale', '0', ...out], env: {} };
  }
  if (command === 'validate') return { args, env: {} };
  if (command === 'compare') {
    // `compare BASE HEAD`: the run made before all, against itself (nothing changed: a pass).
    const flags = args.slice(3);
    return { args: ['compare', baselineDir, baselineDir, ...flags, ...out], env: {} };
  }
  return undefined;
}

describe('the README quick start and the guides', () => {
  const lines = [...new Set(PAGES.flatMap((page) => readmeCommands(page)))];

  it('shows commands (the extraction works)', () => {
    expect(lines.length).toBeGreaterThanOrEqual(8);
    expect(lines).toContain('npx kbbench run suites/demo.csv --no-stream --method get');
    expect(readmeCommands('docs/comparing-models.md')).toHaveLength(3);
  });

  it.each(lines)('%s', async (line) => {
    const { args } = split(line);
    if (args[0] === 'serve') {
      // Runs until stopped: it must start and print where it listens.
      const started = await startServe(args.slice(1));
      expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      await started.stop();
      return;
    }
    const adapted = adapt(line);
    expect(adapted, `a README command this test does not know how to run: ${line}`).toBeDefined();
    const r = await runCli(adapted!.args, { env: adapted!.env });
    expect(r.code, `${line}\n${r.stderr}`).toBe(0);
    // A CSV names no board: against the embedded service the workspace's default is asked, and said.
    if (line.includes('suites/demo.csv') && !line.includes('--board')) expect(r.stderr).toMatch(/asking the embedded workspace's default target/);
  }, 180_000);
});
