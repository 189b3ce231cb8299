// Checks the results.ndjson reader: line by line, torn last line skipped and counted, corruption counted apart.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../domain/sample.js';
import { syntheticSamples } from '../report/test-support/synthetic-run.js';
import { openSync, closeSync } from 'node:fs';
import { readResults, readSampleAt, readSampleOffsets } from './results-reader.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kbbench-read-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function collect(runDir: string): Promise<{ samples: Sample[]; stats: ReturnType<typeof readResults>['stats'] }> {
  const results = readResults(runDir);
  const samples: Sample[] = [];
  for await (const sample of results) samples.push(sample);
  return { samples, stats: results.stats };
}

async function runDirWith(name: string, content: string): Promise<string> {
  const runDir = join(dir, name);
  await mkdir(runDir, { recursive: true });
  await writeFile(join(runDir, 'results.ndjson'), content);
  return runDir;
}

describe('readResults', () => {
  const samples = syntheticSamples({ repeats: 1 });
  const lines = samples.map((s) => JSON.stringify(s));

  it('skips and counts a torn last line', async () => {
    const runDir = await runDirWith('torn', `${lines.join('\n')}\n${lines[0]!.slice(0, 40)}`);
    const { samples: read, stats } = await collect(runDir);
    expect(read).toHaveLength(samples.length);
    expect(stats).toEqual({ lines: samples.length + 1, samples: samples.length, torn_lines: 1, invalid_lines: 0, line: samples.length });
  });

  it('keeps a complete last line that only lacks its newline', async () => {
    const runDir = await runDirWith('no-newline', lines.join('\n'));
    const { samples: read, stats } = await collect(runDir);
    expect(read.map((s) => s.item_id)).toEqual(samples.map((s) => s.item_id));
    expect(stats.torn_lines).toBe(0);
  });

  it('counts a broken line in the middle as invalid, not torn, and reads on', async () => {
    const runDir = await runDirWith('invalid', [lines[0], '{"half": ', '', '[1,2]', lines[1]].join('\n') + '\n');
    const { samples: read, stats } = await collect(runDir);
    expect(read).toHaveLength(2);
    expect(stats.invalid_lines).toBe(2);
    expect(stats.torn_lines).toBe(0);
  });

  it('reads a long file across chunk boundaries, multi-byte text intact', async () => {
    const text = 'ünïcödé — ✓ 漢字 '.repeat(40);
    const many = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ ...samples[0]!, item_id: `i${i}`, text }));
    const runDir = await runDirWith('long', `${many.join('\n')}\n`);
    const { samples: read } = await collect(runDir);
    expect(read).toHaveLength(3000);
    expect(read.every((s) => s.text === text)).toBe(true);
    expect(read.at(-1)!.item_id).toBe('i2999');
  });

  it('reads answers many chunks long in one piece each (linear in the file, not in chunks × line)', async () => {
    const text = 'ä✓'.repeat(700_000); // ~2.8 MB a line: 43 chunks of 64 KiB, multi-byte characters split between them
    const line = (i: number) => JSON.stringify({ ...samples[0]!, item_id: `big${i}`, text });
    const runDir = await runDirWith('huge', `${line(1)}\n${line(2)}\n${line(3)}`);
    const { samples: read, stats } = await collect(runDir);
    expect(read.map((s) => s.item_id)).toEqual(['big1', 'big2', 'big3']);
    expect(read.every((s) => s.text === text)).toBe(true);
    expect(stats.torn_lines).toBe(0); // a complete JSON line without its newline is a sample
  });

  it('reads a missing file as no samples (a run stopped before its first answer)', async () => {
    const { samples: read, stats } = await collect(join(dir, 'nothing-here'));
    expect(read).toEqual([]);
    expect(stats.lines).toBe(0);
  });

  it('fills the place of a line that lacks it (an older or hand-written line), so a case is not read as a thread', async () => {
    const line = JSON.stringify({ item_id: 'case:x|model:m|r1', model: 'm', outcome: 'ok', latency_ms: 5 });
    const { samples } = await collect(await runDirWith('sparse', `${line}\n`));
    expect(samples[0]).toMatchObject({ case_id: null, thread_id: null, turn: null, checks: [], text: '' });
  });
});

describe('readSampleOffsets and readSampleAt', () => {
  it('give each whole line its byte offset and read it back: multi-byte text, a line longer than a chunk, a torn tail skipped', async () => {
    const [a, b, c] = syntheticSamples({ repeats: 1 }).slice(0, 3) as [Sample, Sample, Sample];
    const lines = [{ ...a, text: 'é€😀 '.repeat(3) }, { ...b, text: 'x'.repeat(200_000) }, { ...c, text: 'last' }];
    const body = `${lines.map((l) => JSON.stringify(l)).join('\n')}\n\nnot json\n{"item_id":"torn`;
    const runDir = await runDirWith('offsets', body);
    const found: Array<{ sample: Sample; offset: number }> = [];
    for await (const entry of readSampleOffsets(join(runDir, 'results.ndjson'))) found.push(entry);
    expect(found.map((f) => f.sample.item_id)).toEqual(lines.map((l) => l.item_id));
    const fd = openSync(join(runDir, 'results.ndjson'), 'r');
    try {
      for (const [at, entry] of found.entries()) expect(readSampleAt(fd, entry.offset).text).toBe(lines[at]!.text);
    } finally {
      closeSync(fd);
    }
  });
});
