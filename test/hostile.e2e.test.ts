// A hostile service and hostile input: the CLI (dist/cli/main.js) against a real server on 127.0.0.1
// that echoes the key, lies about credits and asks for long waits (test/hostile-server.ts).
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson } from '../src/test-support/raw-server.js';
import type { Sample } from '../src/domain/sample.js';
import { CLI, readJson, readNdjson, runCli, tempDir, runCliInProcess } from './helpers.js';
import { HOSTILE_BOARD, hostileSuite, startHostileServer, type HostileServer } from './hostile-server.js';

const REAL_KEY = 'kb-live-7f3a9c2e51d04b8a';

function everyFileOf(dir: string): string {
  return readdirSync(dir).map((name) => readFileSync(join(dir, name), 'utf8')).join('\n');
}

describe('redaction never corrupts results (finding 1)', () => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await startHostileServer();
    // Echoes the key in the answer, and in the error body of every third question.
    let n = 0;
    server.answer((_req, res, key) => {
      n += 1;
      if (n % 3 === 0) return sendJson(res, 500, { error: `upstream said ${key}` }, { 'x-echo': key });
      sendJson(res, 200, { text: `ok: the key you sent is ${key} (true, null, model, 1)`, credits_used: 0.01, credits_remaining: 10 });
    });
  });
  afterAll(() => server.close());

  for (const key of ['1', 'k', 'ok', 'true', 'model', 'null']) {
    it(`with the key ${JSON.stringify(key)}, every line parses and every field is intact, and a warning says it cannot be redacted`, async () => {
      const dir = tempDir();
      const out = join(dir, 'run');
      const r = await runCliInProcess(['run', hostileSuite(dir, 8), '--base-url', server.url, '--out', out, '--retries', '0', '--quiet'], { env: { KBBENCH_API_KEY: key } });
      const lines = readFileSync(join(out, 'results.ndjson'), 'utf8').trim().split('\n');
      expect(lines).toHaveLength(8);
      const samples = lines.map((l) => JSON.parse(l) as Sample);
      for (const s of samples) {
        expect(s.model).toBe('gpt-4o');
        expect(s.repeat).toBe(1);
        expect(['ok', 'http_error']).toContain(s.outcome);
        expect(s.endpoint).toBe('ask');
      }
      const ok = samples.filter((s) => s.outcome === 'ok');
      expect(ok.length).toBeGreaterThan(0);
      for (const s of ok) expect(s.text).toBe(`ok: the key you sent is ${key} (true, null, model, 1)`);
      const summary = readJson<{ totals: { requests: number; ok: number } }>(join(out, 'summary.json'));
      expect(summary.totals.requests).toBe(8);
      expect(summary.totals.ok).toBe(ok.length);
      expect(r.code).toBe(1); // the 500s are failures, counted as such
      expect(r.stderr.match(/cannot be redacted/g)).toHaveLength(1);
    });
  }

  it('a realistic key echoed by the service (answer, error body, header) appears in no run file and no output', async () => {
    const dir = tempDir();
    const out = join(dir, 'run');
    const r = await runCliInProcess(['run', hostileSuite(dir, 8), '--base-url', server.url, '--out', out, '--retries', '0'], { env: { KBBENCH_API_KEY: REAL_KEY } });
    expect(r.code).toBe(1);
    const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
    expect(samples).toHaveLength(8);
    expect(samples.filter((s) => s.outcome === 'ok').every((s) => s.text.includes('[redacted]'))).toBe(true);
    expect(everyFileOf(out)).not.toContain(REAL_KEY);
    expect(`${r.stdout}${r.stderr}`).not.toContain(REAL_KEY);
    expect(r.stderr).not.toMatch(/cannot be redacted/);
  });
});

describe('the embedded service reads only its documents root, and never sees the environment (finding 2)', () => {
  const GITHUB_TOKEN = 'ghp_0123456789abcdefghijklmnopqrstuvwxyz';
  const suiteFor = (dir: string, documents: string, docsRoot = ''): string => {
    const ws = join(dir, 'ws.yaml');
    writeFileSync(ws, `${docsRoot}accounts: [ { id: a, name: A, key: kb-test-0000-local, credits: 1000 } ]\nboards:\n  - id: b\n    name: B\n    account: a\n    chats:\n      - id: c\n        documents: ['${documents}']\n`);
    const suite = join(dir, 'suite.yaml');
    writeFileSync(suite, `name: leak\nworkspace: ws.yaml\ntarget: { board_id: b, chat_id: c }\nmodels: [gpt-4o]\ncases:\n  - id: env\n    prompt: GITHUB_TOKEN KBBENCH_API_KEY PATH HOME root\n`);
    return suite;
  };

  for (const doc of ['../../../../../../etc/passwd', '/proc/self/environ']) {
    it(`refuses ${doc} with file:line, exit 2, nothing sent`, async () => {
      const dir = tempDir();
      const out = join(dir, 'run');
      const r = await runCliInProcess(['run', suiteFor(dir, doc), '--out', out, '--latency-scale', '0']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/ws\.yaml:8: boards\[0\]\.chats\[0\]\.documents\[0\]: .*outside the documents root/);
      expect(existsSync(join(out, 'results.ndjson'))).toBe(false);
    });
  }

  it('even with docs_root: / serving /proc/self/environ, neither the key nor a CI token reaches any run file', async () => {
    const dir = tempDir();
    const out = join(dir, 'run');
    const r = await runCliInProcess(['run', suiteFor(dir, '/proc/self/environ', 'docs_root: /\n'), '--out', out, '--latency-scale', '0'], {
      env: { KBBENCH_API_KEY: REAL_KEY, GITHUB_TOKEN },
    });
    expect(r.code).toBe(0);
    const files = everyFileOf(out);
    expect(files).not.toContain(REAL_KEY);
    expect(files).not.toContain(GITHUB_TOKEN);
    expect(files).not.toContain('kb-test-0000-local');
    expect(`${r.stdout}${r.stderr}`).not.toContain(GITHUB_TOKEN);
  });
});

describe('credit values are validated: one rule for JSON answers and usage chunks (finding 9)', () => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await startHostileServer();
  });
  afterAll(() => server.close());

  it('a negative credits_used does not let a --max-credits run spend past its budget', async () => {
    server.answer((_req, res) => sendJson(res, 200, { text: 'fine', credits_used: -5, credits_remaining: 100 }));
    const before = server.requests.length;
    const dir = tempDir();
    const out = join(dir, 'run');
    const r = await runCliInProcess(['run', hostileSuite(dir, 20), '--base-url', server.url, '--out', out, '--max-credits', '1', '--quiet', '--json'], { env: { KBBENCH_API_KEY: REAL_KEY } });
    expect(r.code).toBe(3);
    const asked = server.requests.slice(before).filter((q) => q.path === '/api/conversation').length;
    expect(asked).toBeLessThan(20);
    const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
    for (const s of samples) {
      expect(s.outcome).toBe('ok');
      expect(s.text).toBe('fine');
      expect(s.credits_used).toBeNull();
      expect(s.credits_invalid).toBe('credits_used -5');
    }
    const summary = readJson<{ totals: { credits_used: number } }>(join(out, 'summary.json'));
    expect(readJson<{ status: string }>(join(out, 'run.json')).status).toBe('budget-exhausted');
    expect(summary.totals.credits_used).toBeGreaterThanOrEqual(0);
  });

  it('1e308 in a JSON answer keeps the answer, marks its credits invalid, and the sums stay numbers', async () => {
    server.answer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"text":"big","credits_used":1e308,"credits_remaining":1e308}');
    });
    const dir = tempDir();
    const out = join(dir, 'run');
    const r = await runCliInProcess(['run', hostileSuite(dir, 3), '--base-url', server.url, '--out', out, '--quiet'], { env: { KBBENCH_API_KEY: REAL_KEY } });
    expect(r.code).toBe(0);
    const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
    expect(samples.every((s) => s.outcome === 'ok' && s.text === 'big' && s.credits_invalid === 'credits_used 1e+308, credits_remaining 1e+308')).toBe(true);
    const summary = readJson<{ totals: { credits_used: number } }>(join(out, 'summary.json'));
    expect(summary.totals.credits_used).toBe(0);
    expect(r.stdout).not.toMatch(/\d{30}/);
  });

  it('NaN in a usage chunk keeps a complete streamed answer', async () => {
    server.answer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: {"type":"text-delta","id":"t","delta":"streamed answer"}\n\ndata: {"type":"finish"}\n\ndata: {"type":"usage","credits_used":NaN}\n\ndata: [DONE]\n\n');
    });
    const dir = tempDir();
    const out = join(dir, 'run');
    const suite = hostileSuite(dir, 2);
    writeFileSync(suite, readFileSync(suite, 'utf8').replace('streaming: false', 'streaming: true'));
    const r = await runCliInProcess(['run', suite, '--base-url', server.url, '--out', out, '--quiet'], { env: { KBBENCH_API_KEY: REAL_KEY } });
    const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
    expect(samples.map((s) => [s.outcome, s.text, s.credits_used, s.credits_invalid])).toEqual([
      ['ok', 'streamed answer', null, 'credits_used NaN'],
      ['ok', 'streamed answer', null, 'credits_used NaN'],
    ]);
    expect(r.code).toBe(0);
  });
});

describe('Retry-After is bounded by --max-retry-wait (finding 4)', () => {
  // In this process: a wait that was not bounded would hold the test past its timeout, and fail it.
  let server: HostileServer;
  beforeAll(async () => {
    server = await startHostileServer();
  });
  afterAll(() => server.close());

  it('a 429 asking for 999999s ends that request at once: recorded as rate limited with the wait asked', async () => {
    server.answer((_req, res) => sendJson(res, 429, { error: 'Too Many Requests' }, { 'retry-after': '999999' }));
    const before = server.requests.length;
    const dir = tempDir();
    const out = join(dir, 'run');
    const r = await runCliInProcess(['run', hostileSuite(dir, 3), '--base-url', server.url, '--out', out, '--retries', '5', '--quiet'], { env: { KBBENCH_API_KEY: REAL_KEY } });
    expect(r.code).toBe(1);
    const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
    expect(samples).toHaveLength(3);
    for (const s of samples) {
      expect(s.status).toBe(429);
      expect(s.attempts).toBe(1);
      expect(s.error?.code).toBe('E_RATE_LIMITED');
      expect(s.error?.message).toContain('asked to wait 999999s (Retry-After), longer than --max-retry-wait 60s');
    }
    expect(server.requests.slice(before).filter((q) => q.path === '/api/conversation')).toHaveLength(3);
  });

  it('a Retry-After past the timer range (9999999s) sends no burst of retries', async () => {
    server.answer((_req, res) => sendJson(res, 429, { error: 'Too Many Requests' }, { 'retry-after': '9999999' }));
    const before = server.requests.length;
    const dir = tempDir();
    const r = await runCliInProcess(['run', hostileSuite(dir, 1), '--base-url', server.url, '--out', join(dir, 'run'), '--retries', '3', '--quiet'], { env: { KBBENCH_API_KEY: REAL_KEY } });
    expect(r.code).toBe(1);
    expect(server.requests.slice(before).filter((q) => q.path === '/api/conversation')).toHaveLength(1);
  });

  it('the preflight listing is bounded too, and a smaller --max-retry-wait is honoured', async () => {
    server.boards((_req, res) => sendJson(res, 429, { error: 'Too Many Requests' }, { 'retry-after': '120' }));
    try {
      const dir = tempDir();
      const r = await runCliInProcess(['run', hostileSuite(dir, 1), '--base-url', server.url, '--out', join(dir, 'run'), '--max-retry-wait', '90s'], { env: { KBBENCH_API_KEY: REAL_KEY } });
      expect(r.code).toBe(3);
      expect(r.stderr).toContain('asked to wait 120s (Retry-After), longer than --max-retry-wait 90s');
    } finally {
      server.boards((_req, res) => sendJson(res, 200, { data: [{ id: HOSTILE_BOARD, name: 'hostile' }] }));
    }
  });

  it('refuses a --max-retry-wait past a day (exit 2)', async () => {
    const dir = tempDir();
    const r = await runCliInProcess(['run', hostileSuite(dir, 1), '--base-url', server.url, '--out', join(dir, 'run'), '--max-retry-wait', '25h'], { env: { KBBENCH_API_KEY: REAL_KEY } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--max-retry-wait');
  });
});

describe('user-named things called __proto__, constructor, toString (finding 3)', () => {
  const NAMES = ['__proto__', 'constructor', 'toString'];
  let server: HostileServer;
  beforeAll(async () => {
    server = await startHostileServer();
    server.answer((req, res) => {
      if (req.path === '/api/conversation/new') {
        return sendJson(res, 200, { conversationId: '00000000-0000-4000-8000-000000000001', name: 'n', createdAt: '2026-01-01T00:00:00Z', boardId: 'b', chatId: 'c' });
      }
      sendJson(res, 200, { text: 'the answer is 30 days', credits_used: 0.01, credits_remaining: 100 });
    });
  });
  afterAll(() => server.close());

  /** Case ids and thread ids share one namespace: one suite names its cases so, the other its threads. */
  function protoSuite(dir: string, named: 'cases' | 'threads'): string {
    const path = join(dir, `proto-${named}.yaml`);
    const id = (n: string, kind: string): string => (kind === named ? n : `${kind}-${n.replace(/_/g, '')}`);
    const cases = NAMES.map((n) => `  - id: ${id(n, 'cases')}\n    prompt: Question ${n}?\n    assert: [ { contains: 30 days } ]\n`).join('');
    const threads = NAMES.map((n) => `  - id: ${id(n, 'threads')}\n    turns:\n      - prompt: First?\n      - prompt: Second?\n`).join('');
    writeFileSync(path, `name: proto\ntarget: { board_id: ${HOSTILE_BOARD}, chat_id: chat-hostile }\nmodels: [${NAMES.join(', ')}]\ndefaults: { streaming: false }\ncases:\n${cases}threads:\n${threads}thresholds:\n  pass_rate: ['rate>=1']\n`);
    return path;
  }

  for (const named of ['cases', 'threads'] as const) {
    it(`validate lists every model, and a run writes every report with every model and item (${named} so named)`, async () => {
      const dir = tempDir();
      const suite = protoSuite(dir, named);
      const v = await runCliInProcess(['validate', suite]);
      expect(v.code).toBe(0);
      for (const n of NAMES) expect(v.stdout).toMatch(new RegExp(`^${n}\\s+3\\s+3\\s+`, 'm'));
      for (const n of NAMES) expect(v.stdout).toContain(`${named === 'cases' ? 'case' : 'thread'}:${n}|`);
      const out = join(dir, 'run');
      const r = await runCliInProcess(['run', suite, '--base-url', server.url, '--out', out, '--quiet'], { env: { KBBENCH_API_KEY: REAL_KEY } });
      expect(r.stderr).not.toMatch(/Invalid argument|TypeError|at .*\.js:\d+/);
      expect(r.code).toBe(0);
      for (const f of ['summary.json', 'samples.csv', 'summary.csv', 'cases.csv', 'report.html', 'junit.xml']) expect(existsSync(join(out, f))).toBe(true);
      const summary = readJson<{ models: Record<string, { requests: number }> }>(join(out, 'summary.json'));
      expect(Object.keys(summary.models).sort()).toEqual([...NAMES].sort());
      for (const n of NAMES) expect(Object.getOwnPropertyDescriptor(summary.models, n)?.value.requests).toBe(9);
      const samples = readNdjson<Sample>(join(out, 'results.ndjson'));
      expect(samples.filter((s) => s.outcome === 'ok')).toHaveLength(27);
      const cases = readFileSync(join(out, 'cases.csv'), 'utf8');
      for (const n of NAMES) expect(cases).toContain(`${named === 'cases' ? 'case' : 'thread'}:${n}`);
      const cmp = await runCliInProcess(['compare', out, out, '--out', join(dir, 'cmp')]);
      expect(cmp.stderr).not.toMatch(/TypeError|at .*\.js:\d+/);
      expect(cmp.code).toBe(0);
    });
  }
});

describe('a full disk (ENOSPC) (finding 7)', () => {
  const PRELOAD = join(import.meta.dirname, 'fixtures', 'preload', 'full-disk.mjs');
  let server: HostileServer;
  beforeAll(async () => {
    server = await startHostileServer();
  });
  afterAll(() => server.close());
  // A child process: the full disk is a preload (NODE_OPTIONS) in the CLI's own process.
  const fullDisk = (env: Record<string, string>) => ({ KBBENCH_API_KEY: REAL_KEY, NODE_OPTIONS: `--import ${PRELOAD}`, ...env });
  const tempFiles = (dir: string) => readdirSync(dir).filter((f) => f.includes('.tmp'));

  it('mid-run: names results.ndjson, marks run.json failed, keeps only whole lines, leaves no temp file; a resume finishes the run', async () => {
    const dir = tempDir();
    const out = join(dir, 'run');
    const suite = hostileSuite(dir, 30);
    const r = await runCli(['run', suite, '--base-url', server.url, '--out', out, '--concurrency', '1', '--quiet'], { env: fullDisk({ KBBENCH_TEST_FULL_RESULTS_AFTER: '3', KBBENCH_TEST_FULL_RUN_JSON_OK: '1' }) });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`cannot write ${join(out, 'results.ndjson')}: no space left on the device (ENOSPC)`);
    expect(r.stderr).toContain(`--resume ${out}`);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
    expect(readJson<{ status: string }>(join(out, 'run.json')).status).toBe('failed');
    const text = readFileSync(join(out, 'results.ndjson'), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.trim().split('\n').map((l) => JSON.parse(l) as Sample);
    expect(lines).toHaveLength(3);
    expect(tempFiles(out)).toEqual([]);
    const resumed = await runCliInProcess(['run', suite, '--base-url', server.url, '--resume', out, '--quiet'], { env: { KBBENCH_API_KEY: REAL_KEY } });
    expect(resumed.code).toBe(0);
    expect(readNdjson<Sample>(join(out, 'results.ndjson'))).toHaveLength(30);
  });

  it('mid-run with run.json unwritable too: says so, and leaves no 0-byte temp file', async () => {
    const dir = tempDir();
    const out = join(dir, 'run');
    const r = await runCli(['run', hostileSuite(dir, 20), '--base-url', server.url, '--out', out, '--concurrency', '1', '--quiet'], { env: fullDisk({ KBBENCH_TEST_FULL_RESULTS_AFTER: '2' }) });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('run.json could not be marked failed either');
    expect(tempFiles(out)).toEqual([]);
  });

  it('while writing reports: names the report, says `kbbench report` rebuilds it, no temp file; the rebuild works', async () => {
    const dir = tempDir();
    const out = join(dir, 'run');
    const r = await runCli(['run', hostileSuite(dir, 4), '--base-url', server.url, '--out', out, '--quiet'], { env: fullDisk({ KBBENCH_TEST_FULL_FILES: 'report.html,samples.csv' }) });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(new RegExp(`cannot write ${join(out, '(report\\.html|samples\\.csv)')}: no space left on the device \\(ENOSPC\\)`));
    expect(r.stderr).toContain(`kbbench report ${out}`);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
    expect(tempFiles(out)).toEqual([]);
    const rebuilt = await runCliInProcess(['report', out]);
    expect(rebuilt.code).toBe(0);
    expect(existsSync(join(out, 'report.html'))).toBe(true);
  });
});

describe('inputs are read with a byte limit; pipes still work (finding 6) and open key files are warned of (finding 11)', () => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await startHostileServer();
  });
  afterAll(() => server.close());

  it('--api-key-file /dev/zero ends at once with the limit stated (exit 2)', async () => {
    const dir = tempDir();
    const r = await runCliInProcess(['run', hostileSuite(dir, 1), '--base-url', server.url, '--api-key-file', '/dev/zero', '--out', join(dir, 'run')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('larger than the limit of 4096 bytes');
  });

  it('a workspace linked to /dev/zero ends with the limit stated (exit 2)', async () => {
    const dir = tempDir();
    symlinkSync('/dev/zero', join(dir, 'ws.yaml'));
    const suite = join(dir, 'suite.yaml');
    writeFileSync(suite, 'name: z\nworkspace: ws.yaml\ntarget: { board_id: b, chat_id: c }\ncases:\n  - { id: a, prompt: hi }\n');
    const r = await runCliInProcess(['run', suite, '--out', join(dir, 'run'), '--latency-scale', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('larger than the limit of 4 MiB');
  });

  it('a suite and a key file from pipes (FIFOs, as process substitution gives) still work', async () => {
    const dir = tempDir();
    const source = readFileSync(hostileSuite(dir, 2), 'utf8');
    const suiteFifo = join(dir, 'piped.yaml');
    const keyFifo = join(dir, 'key');
    execFileSync('mkfifo', [suiteFifo, keyFifo]);
    const writers = [spawn('sh', ['-c', `cat > '${suiteFifo}'`]), spawn('sh', ['-c', `cat > '${keyFifo}'`])];
    writers[0]!.stdin!.end(source);
    writers[1]!.stdin!.end(`${REAL_KEY}\n`);
    // A child process: opening a FIFO blocks until its writer comes, which must not stall the test process.
    const r = await runCli(['run', suiteFifo, '--base-url', server.url, '--api-key-file', keyFifo, '--out', join(dir, 'run'), '--quiet']);
    expect(r.code).toBe(0);
    expect(readNdjson<Sample>(join(dir, 'run', 'results.ndjson'))).toHaveLength(2);
    expect(r.stderr).not.toContain('readable by others');
  });

  it('a key file readable by others (mode 644) gets a warning, as ssh gives; mode 600 none', async () => {
    const dir = tempDir();
    const keyFile = join(dir, 'key');
    writeFileSync(keyFile, REAL_KEY);
    chmodSync(keyFile, 0o644);
    const open = await runCliInProcess(['run', hostileSuite(dir, 1), '--base-url', server.url, '--api-key-file', keyFile, '--out', join(dir, 'run1'), '--quiet']);
    expect(open.code).toBe(0);
    expect(open.stderr).toContain(`warning: the API key file ${keyFile} is readable by others (mode 644)`);
    chmodSync(keyFile, 0o600);
    const closed = await runCliInProcess(['run', hostileSuite(dir, 1), '--base-url', server.url, '--api-key-file', keyFile, '--out', join(dir, 'run2'), '--quiet']);
    expect(closed.code).toBe(0);
    expect(closed.stderr).not.toContain('readable by others');
  });
});

describe('a closed stdout ends the command quietly (finding 8)', () => {
  it('`kbbench validate … | head -1` prints no EPIPE stack trace', async () => {
    const dir = tempDir();
    const suite = join(dir, 'big.yaml');
    writeFileSync(suite, `name: big\ncases:\n${Array.from({ length: 20_000 }, (_, i) => `  - { id: c${i}, prompt: Question ${i}? }\n`).join('')}`);
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('sh', ['-c', `"${process.execPath}" "${CLI}" validate "${suite}" | head -1`]);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(r.stdout).toBe(`suite big (${suite}): valid\n`);
    expect(r.stderr).toBe('');
  });
});

describe('text from outside is shown as text (finding 10)', () => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await startHostileServer();
    server.answer((_req, res) => sendJson(res, 200, { text: 'nul\u0000here \u001b]0;title\u0007', credits_used: 0.01, credits_remaining: 9 }));
  });
  afterAll(() => server.close());

  it('escapes ANSI/OSC and bidi controls in ids on the console, and NUL in samples.csv', async () => {
    const dir = tempDir();
    const suite = join(dir, 'esc.yaml');
    writeFileSync(suite, `name: esc\ntarget: { board_id: ${HOSTILE_BOARD}, chat_id: c }\nmodels: ["m\\u001b[31mred"]\ndefaults: { streaming: false }\ncases:\n  - { id: "a\\u001b]0;pwned\\u0007b\\u202eevil", prompt: hi }\n`);
    const v = await runCliInProcess(['validate', suite]);
    expect(v.code).toBe(0);
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    for (const text of [v.stdout, v.stderr]) expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u202e]/);
    expect(v.stdout).toContain('case:a\\x1b]0;pwned\\x07b\\u202eevil');
    const out = join(dir, 'run');
    const r = await runCliInProcess(['run', suite, '--base-url', server.url, '--out', out], { env: { KBBENCH_API_KEY: REAL_KEY } });
    expect(r.code).toBe(0);
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    for (const text of [r.stdout, r.stderr]) expect(text).not.toMatch(/[\u0000\u001b\u202e]/);
    const csv = readFileSync(join(out, 'samples.csv'), 'utf8');
    expect(csv).not.toContain('\u0000');
    expect(csv).toContain('nul\\x00here');
  });
});
