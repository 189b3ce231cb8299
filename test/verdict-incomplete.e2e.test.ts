// A run that did not finish never passes: verdict `incomplete` on every output, its unsent items in junit.xml, exit 3.
// The runs stopped by a signal are child processes; `kbbench report` of what they left runs in this process.
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { readJson, readNdjson, runCli, runCliInProcess, tempDir } from './helpers.js';

const SUITE = 'test/fixtures/e2e/small.yaml';
/** small.yaml on one model: 4 cases + 3 turns, twice. */
const PLANNED = 14;

function linesIn(path: string): number {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean).length : 0;
}

/** Runs until `after` result lines are written, then sends `signal`. */
function runUntil(out: string, after: number, signal: NodeJS.Signals) {
  const results = join(out, 'results.ndjson');
  return runCli(['run', SUITE, '--out', out, '--concurrency', '2', '--latency-scale', '0.4', '--seed', '3', '--models', 'gpt-4o-mini', '--repeat', '2'], {
    onSpawn: (child) => {
      const poll = setInterval(() => {
        if (linesIn(results) >= after) {
          clearInterval(poll);
          child.kill(signal);
        }
      }, 20);
      child.once('exit', () => clearInterval(poll));
    },
  });
}

function sentRequests(out: string): number {
  return readNdjson<Sample>(join(out, 'results.ndjson')).filter((s) => s.endpoint !== 'create').length;
}

function skippedNotSent(junit: string): number {
  return junit.match(/<skipped message="not sent: /g)?.length ?? 0;
}

describe('a run that did not finish', () => {
  it('interrupted (SIGINT): verdict incomplete on the console, summary.json, report.html and junit.xml; exit 3', async () => {
    const out = join(tempDir(), 'run');
    const r = await runUntil(out, 3, 'SIGINT');
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/interrupted · verdict INCOMPLETE/);
    expect(r.stdout).not.toMatch(/verdict PASS/);
    const summary = readJson<{ verdict: string; status: string }>(join(out, 'summary.json'));
    expect(summary).toMatchObject({ status: 'interrupted', verdict: 'incomplete' });
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('verdict incomplete');
    expect(html).not.toContain('verdict pass');
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    const unsent = PLANNED - sentRequests(out);
    expect(unsent).toBeGreaterThan(0);
    expect(skippedNotSent(junit)).toBe(unsent);
    expect(junit).toContain('not sent: the run stopped early (interrupted)');
    // The top-level counts include them: every planned request is a testcase.
    expect(junit).toMatch(new RegExp(`<testsuites [^>]*tests="${PLANNED}"`));
  });

  describe('killed (kill -9)', () => {
    /** One run killed after 3 lines; each test reports its own copy of what it left. */
    let killed = '';
    let killedCode: number | null = -1;
    beforeAll(async () => {
      killed = join(tempDir(), 'killed');
      killedCode = (await runUntil(killed, 3, 'SIGKILL')).code;
    });
    const copyOfKilled = (): string => {
      const out = join(tempDir(), 'run');
      cpSync(killed, out, { recursive: true });
      return out;
    };

    it('killed (kill -9, run.json still `running`): `kbbench report` says incomplete, lists the unsent items, exit 3', async () => {
      expect(killedCode).toBe(null);
      const out = copyOfKilled();
      expect(readJson<{ status: string }>(join(out, 'run.json')).status).toBe('running');
      const report = await runCliInProcess(['report', out]);
      expect(report.code).toBe(3);
      expect(report.stdout).toMatch(/running · verdict INCOMPLETE/);
      expect(readJson<{ verdict: string }>(join(out, 'summary.json')).verdict).toBe('incomplete');
      const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
      expect(skippedNotSent(junit)).toBe(PLANNED - sentRequests(out));
      expect(junit).toContain('the run ended without finishing');
    });

    it('a run.json whose suite file is gone still reports incomplete (no unsent list to give)', async () => {
      const out = copyOfKilled();
      const runJson = join(out, 'run.json');
      const info = readJson<{ suite: { path: string } }>(runJson);
      writeFileSync(runJson, JSON.stringify({ ...info, suite: { ...info.suite, path: join(out, 'gone.yaml') } }));
      const report = await runCliInProcess(['report', out, '--json']);
      expect(report.code).toBe(3);
      expect((JSON.parse(report.stdout) as { verdict: string }).verdict).toBe('incomplete');
    });
  });
});
