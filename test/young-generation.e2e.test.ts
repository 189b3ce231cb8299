// A `kbbench run` keeps V8's young generation at two 4 MB semi-spaces (src/session/young-generation.ts):
// by default start-up and the loop took it to two 16 MB ones, 32 MB of RSS held for objects that live
// one request, which put the 1,000,000-request run over 150 MB (issue 21). A size, not a timing.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { YOUNG_CAP_BYTES } from '../src/session/young-generation.js';
import { ROOT, tempDir, instantServerForFile } from './helpers.js';

const server = instantServerForFile();

function run(dir: string, probeOut: string, extra: string[] = []): Promise<number | null> {
  const suite = join(dir, 'young.yaml');
  const cases = Array.from({ length: 20 }, (_, i) => `  - { id: c${i}, prompt: "Question ${i}: how long is the refund window?" }`);
  writeFileSync(suite, `name: young\ntarget: { board_id: mem-board, chat_id: mem-chat }\ncases:\n${cases.join('\n')}\n`);
  const args = [
    '--import', pathToFileURL(join(ROOT, 'test/fixtures/memory/space-probe.mjs')).href, join(ROOT, 'dist/cli/main.js'), 'run', suite,
    '--base-url', `http://127.0.0.1:${server.port()}`, '--no-stream', '--concurrency', '8', '--repeat', '150', '--quiet', '--out', join(dir, 'run'), ...extra,
  ];
  const env = { ...process.env, KBBENCH_API_KEY: 'young-generation-key', SPACE_PROBE_OUT: probeOut };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => resolve(code));
  });
}

describe('the young generation of a run', () => {
  it('stays at two 4 MB semi-spaces (one doubling past at most) through 3,000 requests and the reports', async () => {
    const dir = tempDir('kbbench-young-');
    const probeOut = join(dir, 'probe.json');
    expect(await run(dir, probeOut)).toBe(0);
    const probe = JSON.parse(readFileSync(probeOut, 'utf8')) as { max_new_space_bytes: number; collections: number };
    // Enough collections that V8 would have grown it (it doubles as objects survive scavenges).
    expect(probe.collections).toBeGreaterThan(20);
    // The cap is set between turns of the event loop (the gc observer's entries come then): two
    // scavenges in one turn on a busy machine can take it one doubling past (seen once in CI's
    // parallel projects), never more: two 8 MB semi-spaces, the cap before issue 36.
    expect(probe.max_new_space_bytes).toBeLessThanOrEqual(2 * YOUNG_CAP_BYTES);
  });
});
