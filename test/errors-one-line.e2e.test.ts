// Errors of the machine, not of kbbench: a port in use and a read-only working directory are one
// line naming the port or the file, exit 2, never a stack (issue 20, item 17).
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ROOT, runCli, tempDir } from './helpers.js';

describe('serve --port <in use> (item 17)', () => {
  let taken: Server;
  let port = 0;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    port = (taken.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

  it('is one line naming host and port, exit 2', async () => {
    const r = await runCli(['serve', '--port', String(port)]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([`kbbench: --port: 127.0.0.1:${port} is already in use (another process listens there); pick another --port, or --port 0 for a free one (EADDRINUSE)`]);
    expect(r.stdout).toBe('');
  });
});

// A read-only file system needs a mount of its own: a private mount namespace (unshare -m, as root)
// mounts a read-only tmpfs for the test alone. Where that is not allowed the test cannot be made.
const canMountReadOnly = spawnSync('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs -o ro none /mnt'], { encoding: 'utf8' }).status === 0;

describe('a read-only working directory (item 17)', () => {
  it.skipIf(!canMountReadOnly)('says EROFS and names the directory it could not make, exit 2', () => {
    const dir = join(tempDir(), 'ro');
    mkdirSync(dir);
    const script = `mount -t tmpfs -o ro none '${dir}' && cd '${dir}' && exec '${process.execPath}' '${CLI}' run '${join(ROOT, 'suites/demo.yaml')}' --latency-scale 0`;
    const r = spawnSync('unshare', ['-m', 'sh', '-c', script], { encoding: 'utf8', env: { ...process.env, KBBENCH_API_KEY: '' } });
    expect(r.status).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^kbbench: ${dir}/reports/demo-\\S+ --out: cannot create the run directory \\(${dir}/reports\\): EROFS$`));
  });
});
