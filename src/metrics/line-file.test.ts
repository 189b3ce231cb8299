// Spill files: lines written in buffered writes read back exactly, multi-byte characters across 1 MB chunks too.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLineWriter, readLinesSync } from './line-file.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kbbench-lines-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('line files', () => {
  it('round-trips lines, across buffer and chunk boundaries', () => {
    const path = join(dir, 'a.ndjson');
    const writer = createLineWriter(path);
    // ~3 MB of lines with 3-byte and 4-byte characters, so some fall across a 1 MB read.
    const lines = Array.from({ length: 30_000 }, (_, i) => `${i} ${'é€😀'.repeat(i % 40)} end`);
    for (const line of lines) writer.write(line);
    writer.close();
    writer.close();
    expect([...readLinesSync(path)]).toEqual(lines);
  });

  it('refuses to overwrite a file and reads an empty one as no lines', () => {
    const path = join(dir, 'b.ndjson');
    createLineWriter(path).close();
    expect(() => createLineWriter(path)).toThrow();
    expect([...readLinesSync(path)]).toEqual([]);
  });
});
