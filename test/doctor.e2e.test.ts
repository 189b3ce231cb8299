// kbbench doctor against independent services on 127.0.0.1 (test/doctor-peer.ts): one per stream
// dialect, and one that breaks the contract in known ways. Each dialect is named right, each planted
// difference is reported and nothing else, the bound holds as the server counts it, exits as said.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCliInProcess, tempDir } from './helpers.js';
import { startDoctorPeer, type DoctorPeer, type PeerBreaks, type PeerDialect } from './doctor-peer.js';

interface Report {
  verdict: string;
  dialect: string | null;
  auth: { auth: string; header?: string } | null;
  requests_sent: number;
  credits_spent: number;
  suggested_flags: string[];
  stopped?: string;
  rows: { probe: string; documented: string; observed: string; status: string }[];
}

const peers: DoctorPeer[] = [];
afterEach(async () => {
  await Promise.all(peers.splice(0).map((p) => p.stop()));
});

async function peer(dialect: PeerDialect, breaks: PeerBreaks = {}): Promise<DoctorPeer> {
  const started = await startDoctorPeer(dialect, breaks);
  peers.push(started);
  return started;
}

async function doctor(p: DoctorPeer, extra: string[] = [], key = p.key) {
  const result = await runCliInProcess(['doctor', '--base-url', p.url, '--json', ...extra], { env: { KBBENCH_API_KEY: key } });
  const report = result.stdout.trim() ? (JSON.parse(result.stdout) as Report) : undefined;
  return { ...result, report };
}

const differing = (report: Report | undefined): string[] => (report?.rows ?? []).filter((r) => r.status === 'differs').map((r) => r.probe).sort();

describe('kbbench doctor against independent services', () => {
  it.each(['ui-sse', 'data-stream', 'openai-sse', 'ndjson', 'text'] as const)('names the %s dialect, finds no difference, and stays in its bound', async (dialect) => {
    const p = await peer(dialect);
    const { code, report, stderr } = await doctor(p);
    expect(code, stderr).toBe(0);
    expect(report!.dialect).toBe(dialect);
    expect(differing(report)).toEqual([]);
    expect(report!.verdict).toBe('conforms');
    const notTested = report!.rows.filter((r) => r.status === 'not_tested').map((r) => r.probe);
    // A plain-text stream has no events to see a finish or a usage chunk in; nothing else goes untested.
    expect(notTested).toEqual(dialect === 'text' ? ['stream.finish', 'stream.usage', 'credits.per_model'] : []);
    expect(p.requests()).toBe(report!.requests_sent);
    expect(p.requests()).toBeLessThanOrEqual(20);
    // What the service took, as doctor counted it (a text stream reports none: counted at the estimate, above it).
    if (dialect === 'text') expect(p.creditsTaken()).toBeLessThanOrEqual(report!.credits_spent);
    else expect(p.creditsTaken()).toBeCloseTo(report!.credits_spent, 5);
    expect(p.creditsTaken()).toBeLessThanOrEqual(1);
    expect(report!.suggested_flags).toEqual(['--auth', 'header', '--dialect', dialect]);
    // The plan is printed before anything is sent; the key never is.
    expect(stderr).toMatch(/at most 20 requests/);
    expect(stderr + JSON.stringify(report)).not.toContain(p.key);
  });

  it('reports each planted difference and nothing else (exit 1)', async () => {
    const p = await peer('ui-sse', { missingKeyStatus: 403, unknownChatStatus: 500, noUsageChunk: true, hiddenCredits: 0.001, getDiffers: true });
    const { code, report } = await doctor(p);
    expect(code).toBe(1);
    expect(report!.verdict).toBe('differs');
    expect(differing(report)).toEqual(['ask.get', 'auth.missing_key', 'credits.remaining', 'errors.unknown_chat', 'stream.usage']);
    const row = (probe: string) => report!.rows.find((r) => r.probe === probe)!;
    expect(row('auth.missing_key').observed).toMatch(/HTTP 403/);
    expect(row('errors.unknown_chat').observed).toMatch(/HTTP 500/);
    expect(row('stream.usage').observed).toMatch(/no usage chunk/);
    expect(row('ask.get').observed).toMatch(/^GET: HTTP 200/);
    expect(row('credits.remaining').observed).toMatch(/do not add up/);
    expect(p.requests()).toBeLessThanOrEqual(20);
    expect(p.creditsTaken()).toBeLessThanOrEqual(1);
  });

  it('finds the one key form a service takes; run --profile sends the key that way and warns once when the service behaves otherwise', async () => {
    const p = await peer('ndjson', { onlyForm: 'api_key' });
    const dir = tempDir('kbbench-doctor-');
    const out = join(dir, 'doctor.json');
    const checked = await runCliInProcess(['doctor', '--base-url', p.url, '--out', out], { env: { KBBENCH_API_KEY: p.key } });
    // public-facts.md: a server accepts all three forms; this one takes the api_key header alone.
    expect(checked.code, checked.stderr).toBe(1);
    expect(checked.stdout).toMatch(/doctor: differs/);
    const report = JSON.parse(readFileSync(out, 'utf8')) as Report;
    expect(report.auth).toEqual({ auth: 'header', header: 'api_key' });
    expect(differing(report)).toEqual(['auth.header_x_api_key', 'auth.query']);

    const suite = join(dir, 'suite.csv');
    writeFileSync(suite, 'id,prompt\nhello,Hello\nnumber,What is my favourite number?\n');
    const target = ['--base-url', p.url, '--board', p.boardId, '--chat', p.chatId, '--quiet', '--retries', '0'];
    const run = await runCliInProcess(['run', suite, ...target, '--profile', out, '--out', join(dir, 'run')], { env: { KBBENCH_API_KEY: p.key } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/warning/);
    const config = (JSON.parse(readFileSync(join(dir, 'run', 'run.json'), 'utf8')) as { config: { target: Record<string, unknown> } }).config;
    expect(config.target).toMatchObject({ auth: 'header', apiKeyHeader: 'api_key', dialect: 'ndjson' });

    // The profile says ui-sse; the service streams NDJSON: one warning, however many answers.
    writeFileSync(out, JSON.stringify({ ...report, dialect: 'ui-sse' }));
    const drifted = await runCliInProcess(['run', suite, ...target, '--profile', out, '--out', join(dir, 'run2')], { env: { KBBENCH_API_KEY: p.key } });
    expect(drifted.stderr.match(/behaves otherwise than its profile/g)).toHaveLength(1);
    expect(drifted.stderr).toMatch(/did not read as ui-sse/);

    // A flag that contradicts the profile is refused before anything is sent.
    const before = p.requests();
    const contradicted = await runCliInProcess(['run', suite, ...target, '--profile', out, '--dialect', 'ndjson', '--out', join(dir, 'run3')], { env: { KBBENCH_API_KEY: p.key } });
    expect(contradicted.code).toBe(2);
    expect(p.requests()).toBe(before);
  });
});

describe('kbbench doctor exits', () => {
  it('stops at --max-credits: the rest is not tested, exit 3, the server took no more', async () => {
    const p = await peer('ui-sse');
    const { code, report } = await doctor(p, ['--max-credits', '0.06']);
    expect(code).toBe(3);
    expect(report!.verdict).toBe('incomplete');
    expect(report!.stopped).toMatch(/--max-credits 0.06/);
    expect(p.creditsTaken()).toBeLessThanOrEqual(0.06);
    expect(report!.rows.find((r) => r.probe === 'ask.get')!.status).toBe('not_tested');
  });

  it('exit 3 when the key is refused in every form, or nothing answers', async () => {
    const p = await peer('ui-sse');
    const refused = await doctor(p, [], 'not-the-key-0123456789');
    expect(refused.code).toBe(3);
    expect(refused.report!.verdict).toBe('unreachable');
    expect(refused.report!.stopped).toMatch(/refused in every form/);
    expect(p.requests()).toBe(3);
    const url = p.url;
    await p.stop();
    const gone = await runCliInProcess(['doctor', '--base-url', url, '--json'], { env: { KBBENCH_API_KEY: p.key } });
    expect(gone.code).toBe(3);
    expect(JSON.parse(gone.stdout).stopped).toMatch(/did not answer/);
  });

  it('exit 2 on bad input, nothing sent', async () => {
    const p = await peer('ui-sse');
    expect((await runCliInProcess(['doctor', '--base-url', 'ftp://127.0.0.1/'], { env: { KBBENCH_API_KEY: p.key } })).code).toBe(2);
    expect((await runCliInProcess(['doctor', '--base-url', p.url])).code).toBe(2);
    expect((await runCliInProcess(['doctor', '--base-url', p.url, '--board', p.boardId], { env: { KBBENCH_API_KEY: p.key } })).code).toBe(2);
    expect((await runCliInProcess(['doctor', '--base-url', p.url, '--max-credits', '-1'], { env: { KBBENCH_API_KEY: p.key } })).code).toBe(2);
    expect(p.requests()).toBe(0);
  });
});
