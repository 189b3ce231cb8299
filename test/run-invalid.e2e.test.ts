// Invalid input exits 2 with file, line and field, before anything is sent (the CLI in-process: no process boundary is tested here).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess as runCli, tempDir } from './helpers.js';

const DIR = 'test/fixtures/suites/invalid';
// Nothing listens on port 9 (discard) here: had the run tried to send anything, it would stop with
// exit 3 ("unreachable"); exit 2 proves it gave up before any connection.
const DEAD_URL = 'http://127.0.0.1:9';

/** The first line each fixture must name: file:line (and the field where one is at fault). */
const EXPECTED: Record<string, RegExp> = {
  'missing-prompt.yaml': /missing-prompt\.yaml:5:5 cases\[1\]\.prompt/,
  'missing-prompt.csv': /missing-prompt\.csv:3 prompt/,
  'duplicate-id.yaml': /duplicate-id\.yaml:7:9 threads\[0\]\.id: duplicate id/,
  'duplicate-id.csv': /duplicate-id\.csv:3 id: duplicate id/,
  'unknown-check.yaml': /unknown-check\.yaml:6:9 cases\[0\]\.assert\[1\]: unknown check type "contians"/,
  'turn-skip.yaml': /turn-skip\.yaml:6:15 .*turn/,
  'turn-gap.csv': /turn-gap\.csv:3 turn: thread "onboarding" skips turn 2/,
  'bad-threshold.yaml': /bad-threshold\.yaml:5:27 thresholds\.ttfc_ms\[1\]/,
  'syntax-error.yaml': /syntax-error\.yaml:4:3 YAML syntax/,
  // A mistyped CSV check type is an error at the cell, not a silent `equals` check.
  'mistyped-check.csv': /mistyped-check\.csv:2:36 __expected1: unknown check type "contans" \(did you mean "contains"\?\)/,
  // The line where the quote opened (3), not where the file ends (6).
  'unclosed-quote.csv': /unclosed-quote\.csv:3:6 CSV syntax: this quote opens a field that is never closed/,
  'not-a-suite.txt': /not-a-suite\.txt .*\.yaml, \.yml or \.csv/,
};

describe('invalid suites', () => {
  const files = readdirSync(DIR);

  it.each(files)('%s exits 2 naming where, and sends nothing', async (file) => {
    const r = await runCli(['run', join(DIR, file), '--base-url', DEAD_URL], { env: { KBBENCH_API_KEY: 'k-test-0000' } });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(file);
    if (!file.endsWith('.txt')) expect(r.stderr).toMatch(/:\d+/); // a wrong extension has no line to name
    if (EXPECTED[file]) expect(r.stderr).toMatch(EXPECTED[file]!);
    expect(r.stdout).toBe('');
  });

  it('lists every problem of a suite at once', async () => {
    const r = await runCli(['validate', join(DIR, 'many-problems.yaml')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n').length).toBeGreaterThanOrEqual(4);
  });

  it('an unknown model is a warning, not an error', async () => {
    const r = await runCli(['validate', 'test/fixtures/suites/valid/unknown-model.yaml']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: .*unknown-model\.yaml:\d+/);
  });

  it('bad flags exit 2 naming the flag', async () => {
    const bad = [
      ['--concurrency', '0'], ['--timeout', 'soon'], ['--shard', '5/4'], ['--threshold', 'ttfc_ms=p(95)<<2'], ['--rate', '5'],
      ['--max-credit', '5'], ['--method', 'put'], ['--api-key', 'k'], ['--rate', '0.5', '--duration', '1s'],
    ];
    for (const args of bad) {
      const r = await runCli(['run', 'suites/demo.yaml', '--base-url', DEAD_URL, ...args], { env: { KBBENCH_API_KEY: 'k-test-0000' } });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
    }
  });
});

describe('kbbench validate', () => {
  it('prints what a run would send, per model and thread', async () => {
    const r = await runCli(['validate', 'suites/demo.yaml']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/valid/);
    expect(r.stdout).toMatch(/gpt-4o-mini/);
    expect(r.stdout).toMatch(/plans-followup/);
    expect(r.stdout).toMatch(/create/);
  });

  it('reads the CSV demo as the same plan as the YAML demo', async () => {
    const yaml = JSON.parse((await runCli(['validate', 'suites/demo.yaml', '--json', '--models', 'gpt-4o'])).stdout) as { requests: { id: string }[] };
    const csv = JSON.parse((await runCli(['validate', 'suites/demo.csv', '--json', '--models', 'gpt-4o'])).stdout) as { requests: { id: string }[] };
    expect(csv.requests.map((r) => r.id)).toEqual(yaml.requests.map((r) => r.id));
  });
});

describe('a run directory is never mixed', () => {
  it('refuses --out into a directory that already holds a run (exit 2), pointing at --resume', async () => {
    const out = join(tempDir(), 'run');
    const first = await runCli(['run', 'test/fixtures/e2e/small.yaml', '--out', out, '--latency-scale', '0', '--models', 'gpt-4o-mini', '--quiet']);
    expect(first.code).toBe(0);
    const again = await runCli(['run', 'test/fixtures/e2e/small.yaml', '--out', out, '--latency-scale', '0', '--quiet']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/--resume/);
  });
});

