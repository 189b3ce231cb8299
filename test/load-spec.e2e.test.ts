// The one load model seen from outside: run.json's typed `load.spec` (schema 2), run directories of
// kbbench 0.1.0 migrated on read, a broken run.json named in one line, and a resume that keeps the
// load it continues (or is not offered where it cannot work).
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { readJson, readNdjson, ROOT, runCli, tempDir, runCliInProcess } from './helpers.js';

const SUITE = 'test/fixtures/e2e/small.yaml';

/** A copy of a fixture written by kbbench 0.1.0 (today's main when the load spec came): fixtures stay untouched. */
function copyOf(name: string): string {
  const dir = join(tempDir('kbbench-v010-'), name);
  cpSync(join(ROOT, 'test/fixtures/runs', name), dir, { recursive: true });
  return dir;
}

const linesIn = (path: string): number => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean).length : 0);

interface RunJson {
  schema_version: number;
  status: string;
  config: Record<string, unknown>;
  load: { spec: { kind: string; concurrency?: number } };
}

/** Runs the CLI and sends SIGINT once `results` holds `lines` lines. */
function interruptAfter(args: string[], results: string, lines: number) {
  return runCli(args, {
    onSpawn: (child) => {
      const poll = setInterval(() => {
        if (linesIn(results) >= lines) {
          clearInterval(poll);
          child.kill('SIGINT');
        }
      }, 20);
      child.once('exit', () => clearInterval(poll));
    },
  });
}

describe('run directories written by kbbench 0.1.0', () => {
  it.each<[string, number]>([
    ['v0.1.0-closed-c8', 0], ['v0.1.0-open-rate', 0], ['v0.1.0-stages', 0], ['v0.1.0-concurrency-stages', 0],
    ['v0.1.0-open-interrupted', 3], ['v0.1.0-closed-c8-interrupted', 3],
  ])('%s rebuilds its reports', async (name, code) => {
    const dir = copyOf(name);
    const report = await runCliInProcess(['report', dir]);
    expect(report.code, report.stderr).toBe(code);
    expect(report.stderr).not.toMatch(/Error|at .*\.js/);
    expect(readJson<{ totals: { requests: number } }>(join(dir, 'summary.json')).totals.requests).toBe(linesIn(join(dir, 'results.ndjson')));
  });

  it('an interrupted open loop (--stages) lists nothing as left unsent: its kind cycles the plan, it has no "rest"', async () => {
    // kbbench 0.1.0 looked at `rate` alone and listed 13 of the plan's 14 requests as skipped.
    const dir = copyOf('v0.1.0-stages-interrupted');
    const report = await runCliInProcess(['report', dir]);
    expect(report.code, report.stderr).toBe(3);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).not.toContain('<skipped');
  });

  it('compares an open loop of 0.1.0 with a closed loop of 0.1.0', async () => {
    const compared = await runCliInProcess(['compare', copyOf('v0.1.0-open-rate'), copyOf('v0.1.0-closed-c8'), '--json']);
    expect(compared.stderr).not.toMatch(/Error|at .*\.js/);
    expect([0, 1]).toContain(compared.code);
    expect(JSON.parse(compared.stdout)).toHaveProperty('missing');
  });

  it('resumes a closed loop at its own --concurrency 8 (0.1.0 resumed it at the default 4)', async () => {
    const dir = copyOf('v0.1.0-closed-c8-interrupted');
    const before = linesIn(join(dir, 'results.ndjson'));
    // Time-scaled enough that its first 8 starts are all in flight before one answer ends.
    const resumed = await runCliInProcess(['run', SUITE, '--resume', dir, '--latency-scale', '0.1', '--quiet']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const run = readJson<RunJson>(join(dir, 'run.json'));
    expect(run).toMatchObject({ schema_version: 4, status: 'completed', load: { spec: { kind: 'closed', concurrency: 8 } } });
    const samples = readNdjson<Sample>(join(dir, 'results.ndjson'));
    expect(samples.length).toBe(42);
    expect(new Set(samples.map((s) => s.item_id)).size).toBe(42);
    expect(before).toBe(15);
    // The resume's own seconds (its timeline is new: the fixture kept none): 8 in flight at once, not 4.
    const inFlight = readNdjson<{ in_flight_max: number }>(join(dir, 'timeline.ndjson')).map((l) => l.in_flight_max);
    expect(Math.max(...inFlight)).toBe(8);
  });

  it('an interrupted open loop of 0.1.0 is not resumed: exit 2, one line naming --resume, nothing sent', async () => {
    const dir = copyOf('v0.1.0-open-interrupted');
    const resumed = await runCliInProcess(['run', SUITE, '--resume', dir, '--latency-scale', '0']);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr.trim().split('\n')).toHaveLength(1);
    expect(resumed.stderr).toMatch(/--resume: an open-loop .* cannot be resumed/);
    expect(linesIn(join(dir, 'results.ndjson'))).toBe(6);
  });
});

describe('a run.json that is not one', () => {
  const broken = (field: string): string => {
    const dir = copyOf('v0.1.0-interrupted');
    const path = join(dir, 'run.json');
    const info = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    delete info[field];
    writeFileSync(path, JSON.stringify(info));
    return dir;
  };
  const oneLine = (stderr: string, dir: string, field: string): void => {
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain(join(dir, 'run.json'));
    expect(stderr).toContain(`has no "${field}"`);
    expect(stderr).not.toMatch(/TypeError|at .*\.js/);
  };

  it.each(['options', 'plan', 'target', 'tool', 'suite'])('without %s: report, compare and --resume name the file and the field, exit 2', async (field) => {
    const dir = broken(field);
    const report = await runCliInProcess(['report', dir]);
    expect(report.code).toBe(2);
    oneLine(report.stderr, dir, field);
    const compared = await runCliInProcess(['compare', dir, copyOf('v0.1.0-closed-c8')]);
    expect(compared.code).toBe(2);
    oneLine(compared.stderr, dir, field);
    const resumed = await runCliInProcess(['run', SUITE, '--resume', dir, '--latency-scale', '0']);
    expect(resumed.code).toBe(2);
    oneLine(resumed.stderr, dir, field);
  });

  it('a field of the wrong type is named with its path', async () => {
    const dir = copyOf('v0.1.0-interrupted');
    const path = join(dir, 'run.json');
    writeFileSync(path, readFileSync(path, 'utf8').replace('"items": 10', '"items": "ten"'));
    const report = await runCliInProcess(['report', dir]);
    expect(report.code).toBe(2);
    expect(report.stderr).toContain('plan.items');
    expect(report.stderr).toMatch(/expected a number/);
  });
});

describe('after an interrupt, the console suggests only what works', () => {
  it('an open loop stopped early: no --resume command (it would exit 2), the reason instead', async () => {
    // A budget stops it as surely as a signal, with no race against the signal's moment.
    const out = join(tempDir(), 'run');
    const first = await runCliInProcess(['run', SUITE, '--out', out, '--rate', '8', '--duration', '20s', '--latency-scale', '0', '--seed', '3', '--no-stream', '--max-credits', '0.05']);
    expect(first.code, first.stderr).toBe(3);
    expect(readJson<RunJson>(join(out, 'run.json'))).toMatchObject({ status: 'budget-exhausted', load: { spec: { kind: 'arrivals' } } });
    expect(first.stdout).not.toContain('--resume');
    expect(first.stdout).toMatch(/stopped early \(budget-exhausted\); an open-loop .* cannot be resumed/);
    // What kbbench 0.1.0 suggested here, and why it no longer does.
    const lines = linesIn(join(out, 'results.ndjson'));
    const resumed = await runCliInProcess(['run', SUITE, '--resume', out]);
    expect(resumed.code).toBe(2);
    expect(linesIn(join(out, 'results.ndjson'))).toBe(lines);
  });

  it('a closed loop: the suggested command runs, and keeps the run\'s --concurrency', async () => {
    const out = join(tempDir(), 'run');
    const results = join(out, 'results.ndjson');
    const first = await interruptAfter(['run', SUITE, '--out', out, '--concurrency', '8', '--repeat', '3', '--latency-scale', '0.4', '--seed', '3', '--no-stream'], results, 3);
    expect(first.code).toBe(3);
    const suggested = /finish it with: kbbench (run .*)$/m.exec(first.stdout)?.[1];
    expect(suggested).toBe(`run ${SUITE} --resume ${out}`);
    // Its answers at once: what is checked is that it runs and what it keeps, not its latencies.
    const second = await runCliInProcess([...suggested!.split(' '), '--quiet', '--latency-scale', '0']);
    expect(second.code, second.stderr).toBe(0);
    expect(readJson<RunJson>(join(out, 'run.json'))).toMatchObject({ status: 'completed', load: { spec: { kind: 'closed', concurrency: 8 } } });
    expect(new Set(readNdjson<Sample>(results).map((s) => s.item_id)).size).toBe(42);
  });
});
