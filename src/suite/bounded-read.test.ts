// Unit tests: inputs read with a byte limit, from files, devices and pipes alike.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { NotTextError, readFileBounded, TooLargeError } from './bounded-read.js';
import { loadSuite } from './load.js';

describe('readFileBounded', () => {
  it('stops an endless device at the limit', async () => {
    await expect(readFileBounded('/dev/zero', 100_000)).rejects.toBeInstanceOf(TooLargeError);
    await expect(readFileBounded('/dev/urandom', 1024)).rejects.toThrow('larger than the limit of 1 KiB');
  });

  it('refuses a stream that is not text at its first NUL byte, before holding it up to the limit (issue 20 item 18)', async () => {
    await expect(readFileBounded('/dev/zero', 1024 * 1024 * 1024, { text: true })).rejects.toBeInstanceOf(NotTextError);
    const dir = mkdtempSync(join(tmpdir(), 'kbbench-bounded-'));
    const link = join(dir, 'suite.yaml');
    execFileSync('ln', ['-s', '/dev/zero', link]);
    await expect(loadSuite(link)).rejects.toThrow(/not a text file: a NUL byte at byte 0/);
  });

  it('refuses a regular file over the limit from its size, and reads one at the limit whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kbbench-bounded-'));
    writeFileSync(join(dir, 'a'), 'x'.repeat(2048));
    await expect(readFileBounded(join(dir, 'a'), 2047)).rejects.toBeInstanceOf(TooLargeError);
    expect((await readFileBounded(join(dir, 'a'), 2048)).length).toBe(2048);
  });

  it('reads a pipe (a FIFO, as process substitution gives) to its end', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kbbench-bounded-'));
    const fifo = join(dir, 'suite.yaml');
    execFileSync('mkfifo', [fifo]);
    const body = 'cases:\n' + Array.from({ length: 5000 }, (_, i) => `  - { id: c${i}, prompt: Question ${i}? }\n`).join('');
    const writer = spawn('sh', ['-c', `cat > '${fifo}'`]);
    writer.stdin.end(body);
    const suite = await loadSuite(fifo);
    expect(suite.cases).toHaveLength(5000);
  });
});
