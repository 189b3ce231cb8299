import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_RUN_JSON_BYTES, MAX_SUMMARY_BYTES, readRunFile } from './run-file.js';

const dir = mkdtempSync(join(tmpdir(), 'kbbench-run-file-'));

describe('readRunFile: a run directory file is a regular file of bounded size (issue 34 item 8)', () => {
  it('refuses a FIFO at once, without waiting for a writer', () => {
    const fifo = join(dir, 'run.json');
    execFileSync('mkfifo', [fifo]);
    expect(() => readRunFile(fifo, MAX_RUN_JSON_BYTES)).toThrow(/run\.json is not a regular file/);
  });

  it('refuses a link to /dev/zero (a device), never reading it', () => {
    const link = join(dir, 'summary.json');
    symlinkSync('/dev/zero', link);
    expect(() => readRunFile(link, MAX_SUMMARY_BYTES)).toThrow(/summary\.json is not a regular file/);
  });

  it('refuses a file past its limit from its size (run.json 64 MiB), and reads one at the limit', () => {
    const big = join(dir, 'big.json');
    writeFileSync(big, '');
    truncateSync(big, MAX_RUN_JSON_BYTES + 1); // sparse: nothing is written or read
    expect(() => readRunFile(big, MAX_RUN_JSON_BYTES)).toThrow(/larger than the limit of 64 MiB/);
    const small = join(dir, 'small.json');
    writeFileSync(small, '{"a":1}');
    expect(readRunFile(small, 7)).toBe('{"a":1}');
    expect(MAX_SUMMARY_BYTES).toBe(512 * 1024 * 1024);
  });
});
