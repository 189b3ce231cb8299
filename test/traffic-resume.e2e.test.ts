// Ctrl-C in a traffic replay, then `run --resume DIR`: every record of the log ends with exactly one
// result line (an interrupted one counts), conversations go on in their own thread, and a resume
// that would replay another log or at another pace is refused before anything is sent.
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { readJson, readNdjson, runCli, runCliInProcess, startServiceInProcess, tempDir, type InProcessService } from './helpers.js';
import { startTrafficPeer, type TrafficPeer } from './traffic-peer.js';
import { readLog } from '../src/load/kinds/traffic/read-log.js';
import { readTrafficSource } from '../src/load/kinds/traffic/log-shape.js';
import { replaySchedule } from '../src/load/kinds/traffic/schedule.js';

const BOARD = 'winter-frost-CJk4G';
const CHAT = 'chatNode-patient-star-4uIJt';

/** 60 records, one every 100 ms: every other one a turn of c1, c2 or c3 (10 each), the rest one-time questions. */
function writeLog(path: string): void {
  const records = Array.from({ length: 60 }, (_, i) => ({
    at: i / 10, prompt: `Question ${i + 1} about the plans?`, ...(i % 2 === 0 ? { conversation: `c${((i / 2) % 3) + 1}` } : {}),
  }));
  writeFileSync(path, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
}

const linesIn = (path: string): number => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean).length : 0);
/** Ctrl-C once the run has recorded `lines` results. */
const interruptAfter = (results: string, lines: number) => (child: ChildProcess): void => {
  const poll = setInterval(() => {
    if (linesIn(results) < lines) return;
    clearInterval(poll);
    child.kill('SIGINT');
  }, 20);
  child.once('exit', () => clearInterval(poll));
};
/** The timeline's dropped starts: counted, and named (a replay's). */
const droppedItems = (run: string): string[] => readNdjson<{ dropped_items?: string[] }>(join(run, 'timeline.ndjson')).flatMap((l) => l.dropped_items ?? []);
const droppedIn = (run: string): { count: number; items: number } => ({
  count: readNdjson<{ dropped: number }>(join(run, 'timeline.ndjson')).reduce((n, l) => n + l.dropped, 0),
  items: droppedItems(run).length,
});
/** A line's record's instant at time scale 2 (writeLog: record i at i/10 s; c<k>'s turn t is record 6(t − 1) + 2(k − 1)). */
function dueMsOf(s: Sample): number {
  const one = /^case:line-(\d+)\|/.exec(s.item_id);
  const index = one ? Number(one[1]) - 1 : 6 * (s.turn! - 1) + 2 * (Number(s.thread_id!.slice(1)) - 1);
  return index * 50;
}
/** The record a line stands for: its conversation and turn, or its one-time question's line, and its pass. */
const recordOf = (s: Sample): string => s.item_id.replace(/\|model:[^|]*\|r1/, '');

describe('a traffic replay interrupted, then resumed', () => {
  let serve: InProcessService;
  let peer: TrafficPeer;
  beforeAll(async () => {
    // Answers take 150 ms: some are in flight when the signal comes.
    serve = await startServiceInProcess({ latencyScale: 0, stallRate: 1, stallMs: 150 });
    peer = await startTrafficPeer(serve.url);
  });
  afterAll(async () => {
    await peer.stop();
    await serve.stop();
  });
  /** writeLog's log replayed through the peer with `flags`, Ctrl-C once `lines` results are in: its directory, the log and the first run. */
  const interruptedReplay = async (flags: string[], lines: number) => {
    const dir = tempDir();
    const log = join(dir, 'log.jsonl');
    writeLog(log);
    const out = join(dir, 'run');
    const results = join(out, 'results.ndjson');
    const env = { KBBENCH_API_KEY: serve.key };
    const target = ['--base-url', peer.url, '--board', BOARD, '--chat', CHAT, '--graceful-stop', '0s'];
    const first = await runCli(['run', '--traffic', log, ...flags, ...target, '--out', out], { env, onSpawn: interruptAfter(results, lines) });
    return { dir, log, out, results, env, target, first };
  };

  it('accounts for every record once, continues each conversation in its thread, and refuses another log or pace (exit 2, nothing sent)', async () => {
    const { log, out, results, env, first } = await interruptedReplay([], 20);
    expect(first.code, first.stderr).toBe(3);
    expect(first.stdout).toContain(`kbbench run --resume ${out}`);
    const before = readNdjson<Sample>(results);
    expect(before.length).toBeLessThan(60);
    const sentBefore = peer.arrivals.length;

    // Another pace, or a changed log: exit 2 naming what clashes, nothing sent.
    const faster = await runCliInProcess(['run', '--resume', out, '--time-scale', '3'], { env });
    expect(faster.code).toBe(2);
    expect(faster.stderr).toMatch(/--time-scale 3 contradicts the run's replay \(recorded in run.json: 1\)/);
    const stamp = readFileSync(log);
    utimesSync(log, new Date('2030-01-01T00:00:00Z'), new Date('2030-01-01T00:00:00Z'));
    const changed = await runCliInProcess(['run', '--resume', out], { env });
    expect(changed.code).toBe(2);
    expect(changed.stderr).toContain(`the log ${log} changed since the run began`);
    expect(peer.arrivals.length).toBe(sentBefore);
    expect(readNdjson<Sample>(results)).toEqual(before);
    // Put back as it was (same bytes, same time): the resume goes on.
    writeFileSync(log, stamp);
    const recorded = readJson<{ load: { spec: { shape: { read: { mtimeMs: number } } } } }>(join(out, 'run.json')).load.spec.shape.read.mtimeMs;
    utimesSync(log, new Date(recorded), new Date(recorded));

    const second = await runCliInProcess(['run', '--resume', out], { env });
    // Requests cut by the signal (--graceful-stop 0s) are `interrupted` lines: failures the checks gate counts (exit 1), as in any run.
    const cut = before.filter((s) => s.outcome === 'interrupted').length;
    expect(second.code, second.stderr + second.stdout).toBe(cut > 0 ? 1 : 0);
    expect(second.stderr).not.toMatch(/name no item of this plan/);
    const after = readNdjson<Sample>(results);
    expect(after.slice(0, before.length)).toEqual(before);
    const records = after.map(recordOf);
    // Every record exactly once (an interrupted line counts as its record's), none twice.
    expect(records).toHaveLength(60);
    expect(new Set(records).size).toBe(60);
    expect(after.filter((s) => s.thread_id === null)).toHaveLength(30);
    // Each conversation: its turns 1..10 in order, in one conversation across the resume.
    for (const name of ['c1', 'c2', 'c3']) {
      const turns = after.filter((s) => s.thread_id === name);
      expect(turns.map((t) => t.turn)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      const ids = new Set(turns.map((t) => t.conversation_id).filter((id) => id !== null));
      expect(ids.size, `${name}: ${[...ids].join(', ')}`).toBe(1);
      expect(turns.filter((t) => t.outcome !== 'ok' && t.outcome !== 'interrupted')).toEqual([]);
    }
    // What the resume sent went to the service once each: the records with no line before.
    expect(peer.arrivals.length - sentBefore).toBe(60 - before.length);
    const summary = readJson<{ totals: { requests: number; dropped: number } }>(join(out, 'summary.json'));
    expect(summary.totals.dropped).toBe(0);
  }, 60_000);

  it('sums the drops of both segments: a record dropped before is never sent again, and lines + dropped = the records', async () => {
    // One in flight, a record every 25 ms, answers in 150 ms: starts held over a second late are dropped.
    const { out, results, env, first } = await interruptedReplay(['--time-scale', '4', '--max-in-flight', '1'], 12);
    expect(first.code, first.stderr).toBe(3);
    const before = readNdjson<Sample>(results);
    const droppedBefore = readJson<{ dropped: number }>(join(out, 'run.json')).dropped;
    expect(droppedBefore).toBeGreaterThan(0);
    expect(droppedIn(out)).toEqual({ count: droppedBefore, items: droppedBefore });
    const sentBefore = peer.arrivals.length;

    const second = await runCliInProcess(['run', '--resume', out], { env });
    expect([0, 1], second.stderr + second.stdout).toContain(second.code);
    const after = readNdjson<Sample>(results);
    const dropped = readJson<{ dropped: number }>(join(out, 'run.json')).dropped;
    const timeline = droppedIn(out);
    // run.json's dropped is both segments' (the timeline names each drop once).
    expect(dropped).toBe(timeline.count);
    expect(timeline.items).toBe(dropped);
    expect(dropped).toBeGreaterThanOrEqual(droppedBefore);
    // Every record once: a line or a drop, never both, never twice.
    const lines = after.map(recordOf);
    const drops = droppedItems(out).map((id) => id.replace(/\|model:[^|]*\|r1/, ''));
    expect(new Set(lines).size).toBe(lines.length);
    expect(new Set([...lines, ...drops]).size).toBe(60);
    expect(lines.length + dropped).toBe(60);
    // The resume sent only the records with neither: each is a line of its own.
    expect(peer.arrivals.length - sentBefore).toBe(after.length - before.length);
    const summary = readJson<{ totals: { dropped: number; dropped_late?: number } }>(join(out, 'summary.json'));
    expect(summary.totals.dropped - (summary.totals.dropped_late ?? 0)).toBe(dropped);
  }, 60_000);

  it('reports the same stage windows as a replay that ran through: the resumed segment goes on on the log\'s clock', async () => {
    // Twice as fast, windows of 2 s of the log: three stages of a second each, 20 records in each.
    const flags = ['--time-scale', '2', '--traffic-window', '2s', '--quiet'];
    const { dir, log, out, env, target, first } = await interruptedReplay(flags, 15);
    expect(first.code, first.stderr).toBe(3);
    const whole = join(dir, 'whole');
    const through = await runCliInProcess(['run', '--traffic', log, ...flags, ...target, '--out', whole], { env });
    // (A request error, a 429 of the busy service, fails the checks gate: exit 1; the windows are what is compared.)
    expect([0, 1], through.stderr).toContain(through.code);
    const second = await runCliInProcess(['run', '--resume', out, '--quiet'], { env });
    expect([0, 1], second.stderr + second.stdout).toContain(second.code);

    const stagesOf = (run: string) => readJson<{ stages: { start_ms: number; end_ms: number; starts: number; requests: number }[] }>(join(run, 'summary.json')).stages;
    const a = stagesOf(whole);
    const b = stagesOf(out);
    expect(a).toHaveLength(3);
    expect(b.map((s) => [s.start_ms, s.end_ms])).toEqual(a.map((s) => [s.start_ms, s.end_ms]));
    // Each result's intended start is its record's instant on the log's clock (scaled), in the resumed segment too.
    const resumed = readNdjson<Sample>(join(out, 'results.ndjson'));
    expect(resumed).toHaveLength(60);
    for (const sample of resumed) expect(Math.abs(sample.offset_ms - (sample.scheduled_delay_ms ?? 0) - dueMsOf(sample)), sample.item_id).toBeLessThan(5);
    // Results by their intended start: the log's own windows, 20 records each, in both.
    expect(a.map((s) => s.requests)).toEqual([20, 20, 20]);
    expect(b.map((s) => s.requests)).toEqual([20, 20, 20]);
    // Starts by the second they went in: both segments' seconds, all 60, each stage's near the log's (a start may slip a second's edge).
    expect(b.reduce((n, s) => n + s.starts, 0)).toBe(60);
    expect(a.reduce((n, s) => n + s.starts, 0)).toBe(60);
    for (const [i, stage] of b.entries()) expect(Math.abs(stage.starts - a[i]!.starts), `stage ${i}`).toBeLessThanOrEqual(2);
  }, 60_000);
});

describe('a looped, cut replay against the embedded service, interrupted, then resumed', () => {
  it('sends the rest of the same window (its passes by their own ids); a conversation the fresh embedded service cannot know goes on in a new thread', async () => {
    const log = 'suites/traffic-demo.jsonl';
    const out = join(tempDir(), 'run');
    const results = join(out, 'results.ndjson');
    const flags = ['--time-scale', '10', '--loop', '--duration', '9s'];
    const first = await runCli(['run', '--traffic', log, ...flags, '--out', out, '--graceful-stop', '0s', '--quiet'], {
      onSpawn: interruptAfter(results, 15),
    });
    expect(first.code, first.stderr).toBe(3);
    const before = readNdjson<Sample>(results);
    // The same flags again say nothing new: the resume goes on.
    const second = await runCliInProcess(['run', '--resume', out, ...flags, '--quiet']);
    expect([0, 1], second.stderr + second.stdout).toContain(second.code);
    // Said, never silent: the fresh embedded service cannot continue a conversation begun before.
    expect(second.stderr + second.stdout).toMatch(/embedded service keeps no conversation across runs/);
    const after = readNdjson<Sample>(results);
    const { shape } = await readTrafficSource(log);
    let window = 0;
    for await (const _ of replaySchedule(() => readLog(log), { timeScale: 10, durationMs: 9000, loop: { spanMs: shape.spanMs } })) window += 1;
    const dropped = readJson<{ dropped: number }>(join(out, 'run.json')).dropped;
    const records = after.map(recordOf);
    expect(new Set(records).size).toBe(records.length);
    expect(records.length + dropped).toBe(window);
    expect(records.some((r) => r.endsWith('|c2'))).toBe(true);
    // A conversation begun before the interrupt: the fresh embedded service does not know it, so its next turns start a new thread (as a closed loop's resume rebuilds one), all ok.
    // (Near the cut, a 429 is not retried: its wait would end past the log's cut, which the resumed segment keeps, as one that ran through does.)
    expect(after.slice(before.length).filter((s) => s.outcome !== 'ok' && s.outcome !== 'interrupted' && s.error?.code !== 'E_RATE_LIMITED')).toEqual([]);
  }, 60_000);
});
