// What kbbench promises about a run directory (issue 20, items 8, 10, 11, 12, 13; docs/run-directory.md):
// one writer at a time (a lock naming its holder; a dead holder's lock taken over), default names that
// never collide, duplicate lines refused, killed writers' leftovers removed, nobody else's files
// overwritten or followed through a link, SIGHUP a stop like SIGINT, and a duration that covers every
// segment of a killed-then-resumed run. Real processes where a process is what is tested (the lock's
// holder, signals, kill -9, a preloaded full disk, two writers at once), with the embedded service;
// refusals, reports and resumes that hold no one else's lock run the CLI in this process.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { wallClockMs } from '../src/session/start-at.js';
import { CLI, readJson, readNdjson, ROOT, runCli, runCliInProcess, tempDir, type CliResult } from './helpers.js';

const SUITE = resolve(ROOT, 'test/fixtures/e2e/small.yaml');
const PLAN = ['--models', 'gpt-4o-mini', '--repeat', '2'];
const PLANNED = 14; // small.yaml on one model: 4 cases + 3 turns, twice
const LOCK = '.kbbench.lock';

function linesIn(path: string): number {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean).length : 0;
}

/** One whole run (embedded service, one unit in flight), made once: each test cuts its own copy. */
let wholeRun = '';
beforeAll(async () => {
  wholeRun = join(tempDir(), 'whole');
  const r = await runCliInProcess(['run', SUITE, ...PLAN, '--latency-scale', '0', '--concurrency', '1', '--out', wholeRun]);
  expect(r.code, r.stderr).toBe(0);
  expect(linesIn(join(wholeRun, 'results.ndjson'))).toBe(PLANNED);
});

/** A copy of the whole run cut back to its first `keep` lines and marked interrupted: a run to resume. */
function interruptedRun(keep: number): string {
  const out = join(tempDir(), 'run');
  cpSync(wholeRun, out, { recursive: true });
  const results = join(out, 'results.ndjson');
  writeFileSync(results, readFileSync(results, 'utf8').split('\n').filter(Boolean).slice(0, keep).map((l) => `${l}\n`).join(''));
  const info = readJson<Record<string, unknown>>(join(out, 'run.json'));
  writeFileSync(join(out, 'run.json'), JSON.stringify({ ...info, status: 'interrupted', finished_at: null }));
  return out;
}

/** Starts the CLI and resolves once `ready()` holds (polled), with the child and its final result. */
function startCli(args: string[], ready: () => boolean): Promise<{ child: ChildProcess; done: Promise<CliResult> }> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, KBBENCH_API_KEY: undefined, KBBENCH_BASE_URL: undefined } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliResult>((r) => child.on('close', (code) => r({ code, stdout, stderr })));
  return new Promise((resolvePromise, reject) => {
    const poll = setInterval(() => {
      if (ready()) {
        clearInterval(poll);
        resolvePromise({ child, done });
      } else if (child.exitCode !== null) {
        clearInterval(poll);
        reject(new Error(`exited ${child.exitCode} before it was ready: ${stderr}`));
      }
    }, 10);
  });
}

describe('the lock on a run directory', () => {
  it('a second --resume, a report and a merge of a directory being resumed exit 2 naming the holder; the first sends each item once', async () => {
    const out = interruptedRun(2);
    const first = await startCli(['run', SUITE, '--resume', out, '--concurrency', '1', '--latency-scale', '1.5'], () => existsSync(join(out, LOCK)));
    // Refused one after another in this process while the holder (a child) runs, at --latency-scale 1.5, its 12 left.
    const second = await runCliInProcess(['run', SUITE, '--resume', out, '--latency-scale', '0']);
    const report = await runCliInProcess(['report', out]);
    const merge = await runCliInProcess(['merge', out, '--out', join(tempDir(), 'merged')]);
    const pid = first.child.pid!;
    expect(first.child.exitCode).toBe(null); // still running: the refusals met its lock
    for (const r of [second!, report!, merge!]) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`in use by another kbbench process (pid ${pid}`);
    }
    const done = await first.done;
    expect(done.code, done.stderr).toBe(0);
    const lines = readNdjson<Sample>(join(out, 'results.ndjson'));
    expect(lines).toHaveLength(PLANNED);
    expect(new Set(lines.map((s) => s.item_id)).size).toBe(PLANNED);
    expect(existsSync(join(out, LOCK))).toBe(false);
  });

  it('a lock left by a dead process (kill -9) is taken over, and said so', async () => {
    const out = interruptedRun(3);
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(join(out, LOCK), JSON.stringify({ pid: dead, command: 'kbbench run' }));
    const r = await runCliInProcess(['run', SUITE, '--resume', out, '--latency-scale', '0']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`took over the lock of ${out} left by process ${dead}, which is no longer running`);
    expect(linesIn(join(out, 'results.ndjson'))).toBe(PLANNED);
    const report = await runCliInProcess(['report', out]);
    expect(report.code).toBe(0);
  });

  it('two runs of one suite in the same second get two default directories', async () => {
    const cwd = tempDir();
    // Another run already took the default name of every second around now: each new run must get its own.
    const now = wallClockMs();
    for (let s = -2; s <= 30; s += 1) {
      const stamp = new Date(now + s * 1000).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
      const taken = join(cwd, 'reports', `small-${stamp}`);
      mkdirSync(taken, { recursive: true });
      writeFileSync(join(taken, 'results.ndjson'), '');
    }
    // Two writers at once: one in this process, one a child.
    const [a, b] = await Promise.all([runCliInProcess, runCli].map((run) => run(['run', SUITE, ...PLAN, '--latency-scale', '0'], { cwd })));
    expect(a!.code, a!.stderr).toBe(0);
    expect(b!.code, b!.stderr).toBe(0);
    const dirs = readdirSync(join(cwd, 'reports')).filter((d) => existsSync(join(cwd, 'reports', d, 'run.json')));
    expect(dirs).toHaveLength(2);
    for (const d of dirs) expect(linesIn(join(cwd, 'reports', d, 'results.ndjson'))).toBe(PLANNED);
  });

  it('report and --resume refuse a results.ndjson that records an item twice, naming it (exit 2)', async () => {
    const out = interruptedRun(5);
    const results = join(out, 'results.ndjson');
    const first = readFileSync(results, 'utf8').split('\n')[0]!;
    appendFileSync(results, `${first}\n`);
    const id = (JSON.parse(first) as Sample).item_id;
    const report = await runCliInProcess(['report', out]);
    expect(report.code).toBe(2);
    expect(report.stderr).toContain(`${results}:6`);
    expect(report.stderr).toContain(`1 result line(s) record an item that already has one (first: ${id}, line 6 repeats line 1)`);
    const resume = await runCliInProcess(['run', SUITE, '--resume', out, '--latency-scale', '0']);
    expect(resume.code).toBe(2);
    expect(resume.stderr).toContain(`(first: ${id})`);
    expect(linesIn(results)).toBe(6); // nothing sent
  });
});

describe('leftovers of killed writers', () => {
  it('the next report, or resume, of the directory removes *.tmp-* files and .kbbench-cases-* directories', async () => {
    const out = interruptedRun(4);
    const plant = (): void => {
      writeFileSync(join(out, 'report.html.tmp-0123abcd'), 'x'.repeat(1000));
      writeFileSync(join(out, 'samples.csv.tmp-89abcdef'), 'x');
      mkdirSync(join(out, '.kbbench-cases-Ab12Cd'));
      writeFileSync(join(out, '.kbbench-cases-Ab12Cd', 'partition-0.ndjson'), 'x');
    };
    const leftovers = (): string[] => readdirSync(out).filter((f) => f.includes('.tmp-') || f.startsWith('.kbbench-cases-'));
    plant();
    expect(leftovers()).toHaveLength(3);
    expect((await runCliInProcess(['report', out])).code).toBe(3); // interrupted: incomplete
    expect(leftovers()).toEqual([]);
    plant();
    expect((await runCliInProcess(['run', SUITE, '--resume', out, '--latency-scale', '0'])).code).toBe(0);
    expect(leftovers()).toEqual([]);
  });

  it('a torn timeline.ndjson second (a full disk) is cut, so a resume does not glue its seconds onto it', async () => {
    const out = join(tempDir(), 'run');
    const preload = join(ROOT, 'test', 'fixtures', 'preload', 'full-disk.mjs');
    const full = await runCli(['run', SUITE, ...PLAN, '--concurrency', '1', '--latency-scale', '0.6', '--out', out], {
      env: { NODE_OPTIONS: `--import ${preload}`, KBBENCH_TEST_FULL_TIMELINE_AFTER: '1' },
    });
    expect(full.code, full.stderr).toBe(3);
    expect(full.stderr).toContain('timeline.ndjson');
    const resumed = await runCliInProcess(['run', SUITE, '--resume', out, '--latency-scale', '0']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const raw = readFileSync(join(out, 'timeline.ndjson'), 'utf8');
    expect(raw.endsWith('\n')).toBe(true);
    for (const line of raw.split('\n').filter(Boolean)) expect(() => JSON.parse(line) as unknown, line.slice(0, 80)).not.toThrow();
  });
});

describe('files that are not kbbench\'s', () => {
  it('run, merge and compare refuse an --out that holds other files (exit 2), and leave them as they were', async () => {
    const mine = tempDir();
    writeFileSync(join(mine, 'notes.txt'), 'my notes');
    writeFileSync(join(mine, 'report.html'), '<p>my report</p>');
    const run = await runCliInProcess(['run', SUITE, ...PLAN, '--latency-scale', '0', '--out', mine]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/is not a kbbench run directory \(it holds (notes\.txt, report\.html|report\.html, notes\.txt)\)/);
    const a = interruptedRun(PLANNED);
    const merge = await runCliInProcess(['merge', a, '--out', mine]);
    expect(merge.code).toBe(2);
    const compare = await runCliInProcess(['compare', a, a, '--out', mine]);
    expect(compare.code).toBe(2);
    expect(readdirSync(mine).sort()).toEqual(['notes.txt', 'report.html']);
    expect(readFileSync(join(mine, 'report.html'), 'utf8')).toBe('<p>my report</p>');
  });

  it('--resume does not follow a results.ndjson linked out of the run directory', async () => {
    const out = interruptedRun(5);
    const elsewhere = join(tempDir(), 'precious.ndjson');
    renameSync(join(out, 'results.ndjson'), elsewhere);
    symlinkSync(elsewhere, join(out, 'results.ndjson'));
    const before = readFileSync(elsewhere, 'utf8');
    const r = await runCliInProcess(['run', SUITE, '--resume', out, '--latency-scale', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('results.ndjson is a symbolic link');
    expect(readFileSync(elsewhere, 'utf8')).toBe(before);
  });
});

describe('signals', () => {
  it('SIGHUP (a closed terminal, a cancelled CI job) stops a run as SIGINT does: interrupted, reports written, exit 3', async () => {
    const out = join(tempDir(), 'run');
    const results = join(out, 'results.ndjson');
    const run = await startCli(['run', SUITE, ...PLAN, '--concurrency', '1', '--latency-scale', '0.4', '--out', out], () => linesIn(results) >= 2);
    run.child.kill('SIGHUP');
    const r = await run.done;
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('SIGHUP');
    expect(readJson<{ status: string }>(join(out, 'run.json')).status).toBe('interrupted');
    expect(readJson<{ verdict: string }>(join(out, 'summary.json')).verdict).toBe('incomplete');
    expect(linesIn(results)).toBeLessThan(PLANNED);
  });
});

describe('duration after kill -9 and resume', () => {
  it('covers every segment that ran, and the rates follow it', async () => {
    const out = join(tempDir(), 'run');
    const results = join(out, 'results.ndjson');
    const runJson = (): { duration_ms: number | null; status: string } => readJson(join(out, 'run.json'));
    // Killed once it has run long enough for run.json to say how long (or, on a kbbench that never says, after 8 lines).
    const run = await startCli(['run', SUITE, ...PLAN, '--concurrency', '1', '--latency-scale', '0.5', '--out', out], () => {
      if (linesIn(results) < 3) return false;
      return (existsSync(join(out, 'run.json')) && typeof runJson().duration_ms === 'number') || linesIn(results) >= 8;
    });
    run.child.kill('SIGKILL');
    await run.done;
    const killed = runJson();
    expect(killed.status).toBe('running');
    expect(typeof killed.duration_ms).toBe('number');
    const firstSegment = linesIn(results);
    const resumed = await runCliInProcess(['run', SUITE, '--resume', out, '--concurrency', '1', '--latency-scale', '0.05']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const lines = readNdjson<Sample>(results);
    expect(lines).toHaveLength(PLANNED);
    // The resume's own span, on its own monotonic clock: the time its last answer ended.
    const resumeSpanMs = Math.max(...lines.slice(firstSegment).map((s) => s.offset_ms + (s.latency_ms ?? 0)));
    const final = runJson();
    expect(final.duration_ms!).toBeGreaterThanOrEqual(Math.floor(killed.duration_ms! + resumeSpanMs));
    const summary = readJson<{ totals: { duration_ms: number; requests: number; requests_per_s: number } }>(join(out, 'summary.json'));
    expect(summary.totals.duration_ms).toBe(final.duration_ms);
    expect(summary.totals.requests_per_s).toBeCloseTo((summary.totals.requests / final.duration_ms!) * 1000, 2);
  });
});
