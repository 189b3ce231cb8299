// `run --traffic LOG`: records arrive in order, a conversation's turn never before its previous
// answer, and every record is accounted for (a result line each). Timing precision is bench/'s.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { readJson, readNdjson, runCliInProcess as runCli, startServiceInProcess, tempDir, type InProcessService } from './helpers.js';
import { startTrafficPeer, type TrafficPeer } from './traffic-peer.js';

const LOG = 'test/fixtures/traffic/small.jsonl';
// small.yaml's target in the demo workspace (the peer forwards to it).
const BOARD = 'winter-frost-CJk4G';
const CHAT = 'chatNode-patient-star-4uIJt';

describe('run --traffic against a peer that stamps arrivals', () => {
  let serve: InProcessService;
  let peer: TrafficPeer;
  beforeAll(async () => {
    // Every answer stalls 300 ms: a conversation's next turn (due 100 ms later) must wait for it.
    serve = await startServiceInProcess({ latencyScale: 0, stallRate: 1, stallMs: 300 });
    peer = await startTrafficPeer(serve.url);
  });
  afterAll(async () => {
    await peer.stop();
    await serve.stop();
  });

  it('replays each record once, turns in order and never before the previous answer, lateness recorded', async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(['run', 'test/fixtures/e2e/small.yaml', '--traffic', LOG, '--base-url', peer.url, '--out', out, '--quiet'], { env: { KBBENCH_API_KEY: serve.key } });
    expect(r.code, r.stderr).toBe(0);
    const samples = readNdjson<Sample>(join(out, 'results.ndjson')).filter((s) => s.endpoint !== 'create');
    // Every record: one result line, one arrival.
    expect(samples).toHaveLength(7);
    expect(new Set(samples.map((s) => s.item_id)).size).toBe(7);
    expect(peer.arrivals).toHaveLength(7);
    const byConversation = new Map<string, typeof peer.arrivals>();
    for (const a of peer.arrivals) if (a.conversation !== null) byConversation.set(a.conversation, [...(byConversation.get(a.conversation) ?? []), a]);
    expect([...byConversation.values()].map((turns) => turns.map((t) => t.question))).toEqual(expect.arrayContaining([
      ['Which plans do you offer?', 'How much is the second one?', 'And the first one?'],
      ['Is there a free trial?', 'How long does it last?'],
    ]));
    for (const turns of byConversation.values()) {
      for (let i = 1; i < turns.length; i += 1) expect(turns[i]!.atMs).toBeGreaterThanOrEqual(turns[i - 1]!.answeredAtMs!);
    }
    // The second turn of c1 was due at 0.2 s and held behind a 300 ms answer: sent late, its lateness recorded.
    const second = samples.find((s) => s.thread_id === 'c1' && s.turn === 2)!;
    expect(second.scheduled_delay_ms!).toBeGreaterThan(100);
    expect(second.corrected_latency_ms!).toBeGreaterThan(second.latency_ms!);
    const checked = samples.find((s) => s.prompt === 'How is customer data encrypted?')!;
    expect(checked.checks.map((c) => c.type)).toEqual(['contains']);
    const run = readJson<{ load: { spec: { kind: string } } }>(join(out, 'run.json'));
    expect(JSON.stringify(run)).toContain('"kind":"traffic"');
    const summary = readJson<{ totals: { requests: number; dropped: number } }>(join(out, 'summary.json'));
    expect(summary.totals.dropped).toBe(0);
  });

  it('refuses a bad log with its file, line and field, sending nothing (exit 2)', async () => {
    const dir = tempDir();
    const bad = join(dir, 'bad.jsonl');
    (await import('node:fs')).writeFileSync(bad, '{"at":0,"prompt":"a"}\n{"at":"later","prompt":"b"}\n');
    const before = peer.arrivals.length;
    const r = await runCli(['run', 'test/fixtures/e2e/small.yaml', '--traffic', bad, '--base-url', peer.url, '--out', join(dir, 'run'), '--quiet'], { env: { KBBENCH_API_KEY: serve.key } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.jsonl:2 at: "later"/);
    expect(peer.arrivals.length).toBe(before);
  });

  it('replays a log with no suite file: the log is the suite, the target from the flags, the service\'s default model', async () => {
    const out = join(tempDir(), 'run');
    const before = peer.arrivals.length;
    const r = await runCli(['run', '--traffic', LOG, '--base-url', peer.url, '--board', BOARD, '--chat', CHAT, '--out', out, '--quiet'], { env: { KBBENCH_API_KEY: serve.key } });
    expect(r.code, r.stderr).toBe(0);
    const samples = readNdjson<Sample>(join(out, 'results.ndjson')).filter((s) => s.endpoint !== 'create');
    expect(samples).toHaveLength(7);
    expect(peer.arrivals.length - before).toBe(7);
    // No record names a model: none is sent (the service's default).
    expect(samples.every((s) => s.model === 'default')).toBe(true);
    expect(peer.arrivals.slice(before).every((a) => a.model === null)).toBe(true);
    const run = readJson<{ suite: { name: string; path: string } }>(join(out, 'run.json'));
    expect(run.suite.name).toBe('small');
    expect(run.suite.path).toMatch(/small\.jsonl$/);
  });

  it('a suite\'s load: { traffic: FILE } (beside the suite file) is replayed as --traffic is, with its time_scale', async () => {
    const dir = tempDir();
    const { copyFileSync, writeFileSync } = await import('node:fs');
    copyFileSync(LOG, join(dir, 'pilot.jsonl'));
    writeFileSync(join(dir, 'replay.yaml'), `name: replay\nworkspace: ${join(process.cwd(), 'suites/demo/workspace.yaml')}\ntarget: { board_id: ${BOARD}, chat_id: ${CHAT} }\ncases: []\nload: { traffic: pilot.jsonl, time_scale: 2 }\n`);
    const before = peer.arrivals.length;
    const r = await runCli(['run', join(dir, 'replay.yaml'), '--base-url', peer.url, '--out', join(dir, 'run'), '--quiet'], { env: { KBBENCH_API_KEY: serve.key } });
    expect(r.code, r.stderr).toBe(0);
    expect(peer.arrivals.length - before).toBe(7);
    const run = readJson<{ load: { spec: { kind: string; file: string; timeScale: number } } }>(join(dir, 'run', 'run.json'));
    expect(run.load.spec).toMatchObject({ kind: 'traffic', file: join(dir, 'pilot.jsonl'), timeScale: 2 });
  });

  it('a log alone with one --models: records naming none are sent with it; several are refused (exit 2)', async () => {
    const dir = tempDir();
    const before = peer.arrivals.length;
    const args = ['run', '--traffic', LOG, '--base-url', peer.url, '--board', BOARD, '--chat', CHAT, '--quiet'];
    const r = await runCli([...args, '--models', 'gpt-4o-mini', '--out', join(dir, 'one')], { env: { KBBENCH_API_KEY: serve.key } });
    expect(r.code, r.stderr).toBe(0);
    expect(peer.arrivals.slice(before).map((a) => a.model)).toEqual(Array(7).fill('gpt-4o-mini'));
    const two = await runCli([...args, '--models', 'gpt-4o,gpt-4o-mini', '--out', join(dir, 'two')], { env: { KBBENCH_API_KEY: serve.key } });
    expect(two.code).toBe(2);
    expect(two.stderr).toMatch(/give one model/);
    expect(peer.arrivals.length - before).toBe(7);
  });

  it('a log alone without --base-url needs a knowledge base named (exit 2, nothing sent); --workspace names one', async () => {
    const dir = tempDir();
    const refused = await runCli(['run', '--traffic', LOG, '--out', join(dir, 'refused'), '--quiet']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--workspace FILE/);
    const r = await runCli(['run', '--traffic', LOG, '--workspace', 'suites/demo/workspace.yaml', '--latency-scale', '0', '--out', join(dir, 'run'), '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    expect(readNdjson<Sample>(join(dir, 'run', 'results.ndjson')).filter((s) => s.endpoint !== 'create')).toHaveLength(7);
  });
});

describe('run --traffic takes the request flags', () => {
  it('--no-stream and --plaintext reach every replayed record (a log-only run, the embedded service)', async () => {
    const dir = tempDir();
    const log = join(dir, 'log.jsonl');
    writeFileSync(log, '{"at":0,"prompt":"What is the refund window?"}\n{"at":0.1,"prompt":"How much is the team plan?","conversation":"c1"}\n{"at":0.2,"prompt":"And per year?","conversation":"c1"}\n');
    const out = join(dir, 'run');
    const r = await runCli(['run', '--traffic', log, '--no-stream', '--plaintext', '--workspace', 'suites/demo/workspace.yaml', '--latency-scale', '0', '--out', out, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    const asked = readNdjson<Sample>(join(out, 'results.ndjson')).filter((s) => s.endpoint !== 'create');
    expect(asked).toHaveLength(3);
    expect(asked.every((s) => s.streaming === false)).toBe(true);
  });
});

describe('run --traffic with several models', () => {
  it('is refused before anything is sent: a record is sent once (exit 2)', async () => {
    const dir = tempDir();
    const log = join(dir, 'log.jsonl');
    writeFileSync(log, '{"at":0,"prompt":"What is the refund window?"}\n');
    const r = await runCli(['run', '--traffic', log, '--models', 'gpt-4o,gpt-4o-mini', '--workspace', 'suites/demo/workspace.yaml', '--latency-scale', '0', '--out', join(dir, 'run'), '--quiet']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('--models gpt-4o,gpt-4o-mini: a traffic record is sent once');
  });
});
