// Every `npx kbbench` line of every docs/*.md page (and the README, by its OWN_TEST) is run here, as written, with
// only what a test must change (a temporary --out, instant latencies, a 60 s load test or ramp
// shortened, placeholders filled, a line with KBBENCH_API_KEY=… sent to the test's `kbbench serve`,
// its --base-url, or KBBENCH_BASE_URL when it names none). A page whose commands build on each other has its own test
// (OWN_TEST), which must read that page. A new line this file does not know fails the test, so the
// docs cannot drift from the CLI.
// Each line runs in this process (runCliInProcess: the built CLI's runCli, as the bin calls it, with
// its output and exit code; it throws if a command leaves a signal listener or exit code behind) and
// `serve` lines too (startServeInProcess: started, then stopped through its signal source): none of
// them is about a process boundary, and a child per line cost ~1 s of CPU before doing anything.
// The embedded service of a run stays its own child process, as the CLI starts it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorkspaceWithRefundWindowChanged, ROOT, runCliInProcess, startServe, startServeInProcess, tempDir, type ServeHandle } from './helpers.js';

const DEMO_BOARD = 'winter-frost-CJk4G';
const DEMO_CHAT = 'chatNode-patient-star-4uIJt';

/** Pages whose commands are a sequence (each builds on the last), run in order by their own test. */
const OWN_TEST: Record<string, string> = {
  // The tour: the first line's --out is the next one's --baseline, in a fresh folder.
  'README.md': 'test/readme-tour.e2e.test.ts',
  // Each command in order, against the embedded service, with what promptfoo would make of it.
  'docs/promptfoo.md': 'test/promptfoo-doc.e2e.test.ts',
  'docs/your-knowledge-base.md': 'test/knowledge-base-doc.e2e.test.ts',
  'docs/history.md': 'test/history-docs.e2e.test.ts',
  // Against a real Prometheus receiver, which that test starts.
  'docs/live-metrics.md': 'test/live-metrics-docs.e2e.test.ts',
  // Against `kbbench serve` standing in for the live service: the key file, doctor.json, the run.
  'docs/live-service.md': 'test/live-service-docs.e2e.test.ts',
  // A page in a browser, labelled with the keyboard, between its run and its grader-check.
  'docs/review.md': 'test/review-browser.e2e.test.ts',
  // A run recorded, replayed by `serve --from-run`, and run against: each line builds on the last.
  'docs/replay.md': 'test/serve-replay.e2e.test.ts',
};

/** Pages whose `npx kbbench …` lines run here: every page of docs/ (the README has its own test). */
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)].filter((page) => !(page in OWN_TEST));

/** A user's own names on the pages, played by the demo and the test's service. */
const PLACEHOLDERS: Record<string, string> = { 'faq.csv': 'suites/demo.csv', 'suites/support-faq.yaml': 'suites/demo.yaml' };

/** Lines that must not exit 0, as their page says, and what their page promises they show. */
const EXPECTED: { line: RegExp; code: number; markdown?: RegExp }[] = [
  // docs/ci.md, "Try the whole loop locally": a changed refund window fails the comparison.
  { line: /--workspace \/tmp\/ws\/workspace\.yaml --baseline/, code: 1, markdown: /refund-window/ },
];

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
let changedWorkspace: string;
let markdownFile: string;

/** The embedded service's latency scale for the baseline and the lines compared with it. */
const BASELINE_SCALE = '0.2';

beforeAll(async () => {
  serve = await startServe(['--latency-scale', '0']);
  baselineDir = join(tempDir(), 'baseline');
  changedWorkspace = demoWorkspaceWithRefundWindowChanged(join(tempDir(), 'ws'));
  markdownFile = join(tempDir(), 'pr.md');
  // Not instant: a line run against this baseline (--baseline) is judged on latency too, and at
  // --latency-scale 0 a median is a few ms of this machine's scheduling, which a loaded CI machine
  // raises by more than the 10% tolerance. At 0.2 the medians are the service's seeded latencies.
  const r = await runCliInProcess(['run', 'suites/demo.yaml', '--latency-scale', BASELINE_SCALE, '--out', baselineDir, '--quiet']);
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
  const { env, args: written } = split(line);
  // A page's own --out (a baseline folder, /tmp/base) becomes the test's temporary one.
  const args = written.map((word) => PLACEHOLDERS[word] ?? word).filter((_, i, all) => all[i] !== '--out' && all[i - 1] !== '--out');
  const [command] = args;
  const out = ['--out', join(tempDir(), 'run')];
  if (command === 'run' && env.some((e) => e.startsWith('KBBENCH_API_KEY='))) {
    // The live service, played by `kbbench serve`; the user's own suite is the demo's.
    const live = args.map((word) => ({ 'https://…': serve.url, 'https://api.example.com': serve.url, B: DEMO_BOARD, C: DEMO_CHAT })[word] ?? word);
    const target = live.includes('--board') ? [] : ['--board', DEMO_BOARD, '--chat', DEMO_CHAT];
    // A line that names no --base-url (ci.md's baseline) takes it from KBBENCH_BASE_URL, as the
    // workflow sets it: without it, it ran against the embedded service at full latencies (38 s).
    const baseUrl: Record<string, string> = live.includes('--base-url') ? {} : { KBBENCH_BASE_URL: serve.url };
    return { args: [...live, ...target, ...out], env: { KBBENCH_API_KEY: serve.key, ...baseUrl } };
  }
  if (command === 'run') {
    const local = args.map((word, i) => (args[i - 1] === '--duration' ? '2s' : args[i - 1] === '--stages' ? SHORT_STAGES : args[i - 1] === '--concurrency-stages' ? '1s:2,1s:1' : args[i - 1] === '--baseline' || args[i - 1] === '--reuse-answers' ? baselineDir : args[i - 1] === '--workspace' && word === '/tmp/ws/workspace.yaml' ? changedWorkspace : args[i - 1] === '--markdown' ? markdownFile : word));
    const ramp = suiteHasLoadBlock(args[1]) && !args.some((word) => SHAPE_FLAGS.includes(word)) ? ['--stages', SHORT_STAGES] : [];
    // A closed loop that cycles until its stages end sends as fast as answers come: with instant
    // answers it would spend past the demo's `credits_used sum<=5`, so it keeps a little latency.
    // A line judged against the baseline keeps the baseline's latencies (see beforeAll).
    const scale = args.includes('--concurrency-stages') ? '0.2' : args.includes('--baseline') ? BASELINE_SCALE : '0';
    return { args: [...local, ...ramp, '--latency-scale', scale, ...out], env: {} };
  }
  if (command === 'estimate') {
    // `--from reports/demo-run`: a run already made, here the one made before all.
    const local = args.map((word, i) => (args[i - 1] === '--from' ? baselineDir : word));
    return { args: [...local, '--latency-scale', '0', ...out], env: {} };
  }
  if (command === 'validate') return { args, env: {} };
  if (command === 'regrade') {
    // `regrade BASELINE … --baseline BASELINE`: the run made before all, judged again (nothing is sent).
    const local = args.map((word, i) => (i === 1 || args[i - 1] === '--baseline' ? baselineDir : args[i - 1] === '--markdown' ? markdownFile : word));
    return { args: [...local, ...out], env: {} };
  }
  if (command === 'traffic') {
    // The log goes to stdout (the page redirects it): the redirect is the shell's; a run directory is the run made before all.
    const words = args.includes('>') ? args.slice(0, args.indexOf('>')) : args;
    return { args: words.map((word, i) => (i === 1 && word.startsWith('reports/') ? baselineDir : word)), env: {} };
  }
  if (command === 'compare') {
    // `compare BASE HEAD`: the run made before all, against itself (nothing changed: a pass).
    const flags = args.slice(3);
    return { args: ['compare', baselineDir, baselineDir, ...flags, ...out], env: {} };
  }
  return undefined;
}

describe('the README and every docs/ page', () => {
  const lines = [...new Set(PAGES.flatMap((page) => readmeCommands(page)))];

  it('shows commands (the extraction works), and a page left to its own test is read by it', () => {
    expect(PAGES).toEqual(expect.arrayContaining(['docs/cli.md', 'docs/ci.md', 'docs/load-testing.md']));
    expect(readmeCommands('README.md')).toHaveLength(3);
    expect(lines).toContain('npx kbbench run suites/demo.csv --no-stream --method get');
    expect(readmeCommands('docs/comparing-models.md')).toHaveLength(3);
    for (const [page, test] of Object.entries(OWN_TEST)) {
      expect(readmeCommands(page).length, page).toBeGreaterThan(0);
      expect(readFileSync(join(ROOT, test), 'utf8'), `${test} reads ${page}`).toContain(page.split('/').pop()!);
    }
  });

  it.each(lines)('%s', async (line) => {
    const { args } = split(line);
    if (args[0] === 'serve') {
      // Runs until stopped: it must start and print where it listens.
      const started = await startServeInProcess(args.slice(1));
      expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await started.stop()).code).toBe(0);
      return;
    }
    const adapted = adapt(line);
    expect(adapted, `a README command this test does not know how to run: ${line}`).toBeDefined();
    const r = await runCliInProcess(adapted!.args, { env: adapted!.env });
    const expected = EXPECTED.find((e) => e.line.test(line));
    expect(r.code, `${line}\n${r.stdout}\n${r.stderr}`).toBe(expected?.code ?? 0);
    if (expected?.markdown) expect(readFileSync(markdownFile, 'utf8')).toMatch(expected.markdown);
    // A CSV names no board: against the embedded service the workspace's default is asked, and said.
    if (line.includes('suites/demo.csv') && !line.includes('--board')) expect(r.stderr).toMatch(/asking the embedded workspace's default target/);
    // A line for the live service reached the test's `kbbench serve`, not the embedded one.
    if (adapted!.env.KBBENCH_API_KEY !== undefined) expect(r.stderr).toContain(`against ${serve.url}`);
  }, 180_000);
});
