// docs/live-service.md, in order and as written: every line of its ```sh blocks runs against
// `kbbench serve` standing in for https://kb.example.com (the key pasted into the key file is the
// service's; faq.csv is the demo's questions). The lines build on each other (the key file, doctor.json,
// the run directory), so the page has its own test rather than test/readme-commands.e2e.test.ts.
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCliInProcess, startServeInProcess, tempDir, type CliResult, type InProcessServe } from './helpers.js';

const DOC = readFileSync(join(ROOT, 'docs', 'live-service.md'), 'utf8');

function shLines(): string[] {
  return [...DOC.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => (m[1] ?? '').split('\n')).map((line) => line.trim()).filter(Boolean);
}

describe('docs/live-service.md', () => {
  let serve: InProcessServe;
  let work = '';
  const results: { line: string; result: CliResult }[] = [];

  beforeAll(async () => {
    serve = await startServeInProcess(['--latency-scale', '0']);
    work = tempDir('kbbench-live-service-');
    cpSync(join(ROOT, 'suites'), join(work, 'suites'), { recursive: true });
    for (const written of shLines()) {
      const line = written.replaceAll('https://kb.example.com', serve.url).replaceAll('paste-the-key-here', serve.key).replaceAll('faq.csv', 'suites/demo.csv');
      if (line.startsWith('npx kbbench ')) {
        results.push({ line: written, result: await runCliInProcess(line.split(/\s+/).slice(2), { cwd: work }) });
      } else {
        // A shell line (the key file, jq): run by the shell, as a reader would.
        const stdout = execFileSync('sh', ['-c', line], { cwd: work, encoding: 'utf8' });
        results.push({ line: written, result: { code: 0, stdout, stderr: '' } });
      }
    }
  }, 180_000);
  afterAll(async () => {
    await serve?.stop();
  });

  it('runs every line, each exiting 0', () => {
    expect(results.map((r) => r.line)).toEqual(shLines());
    expect(results.length).toBeGreaterThanOrEqual(7);
    for (const { line, result } of results) expect(result.code, `${line}\n${result.stderr}`).toBe(0);
  });

  it('the key file is for its owner alone, and the key is printed nowhere', () => {
    expect(statSync(join(work, 'kbbench.key')).mode & 0o077).toBe(0);
    for (const { result } of results) expect(result.stdout + result.stderr).not.toContain(serve.key);
  });

  it('doctor finds no difference and says how to run; the run uses its profile and spends within its budget', () => {
    const doctor = results.find((r) => r.line.includes(' doctor '))!.result;
    expect(doctor.stdout).toMatch(/^doctor: conforms: 26 conform, 0 differ, 0 not tested; stream dialect ui-sse, key as the x-api-key header; 20 requests/m);
    expect(doctor.stdout).toMatch(/--profile doctor\.json {2}\(or --auth header --dialect ui-sse\)/);
    const run = JSON.parse(readFileSync(join(work, 'reports', 'first-live-run', 'run.json'), 'utf8')) as { config: { target: Record<string, unknown>; budget: Record<string, unknown> }; load: { spec: Record<string, unknown> } };
    expect(run.config).toMatchObject({ target: { dialect: 'ui-sse', apiKeyHeader: 'x-api-key' }, budget: { maxCredits: 2 } });
    // The load is run.json's own section (RunConfig), not an option.
    expect(run.load.spec).toMatchObject({ kind: 'closed', concurrency: 1 });
    const credits = JSON.parse(results.find((r) => r.line.startsWith('jq '))!.result.stdout) as { spent: number; unexplained: number };
    expect(credits.spent).toBeGreaterThan(0);
    expect(credits.spent).toBeLessThanOrEqual(2);
    expect(credits.unexplained).toBe(0);
    expect(results.find((r) => r.line.includes(' estimate '))!.result.stdout).toMatch(/credits/i);
  });
});
