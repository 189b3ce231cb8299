// fileLines: a log's lines split as readline splits them, across chunk edges, in a fixed window.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileLines } from './file-lines.js';

const dir = mkdtempSync(join(tmpdir(), 'traffic-lines-'));
async function linesOf(text: string): Promise<string[]> {
  const path = join(dir, `f${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(path, text);
  const out: string[] = [];
  for await (const line of fileLines(path)) out.push(line);
  return out;
}

describe('fileLines', () => {
  it('splits on \\n, \\r\\n and a lone \\r, keeps empty lines and a last line without an end', async () => {
    expect(await linesOf('a\n\nb\r\nc\rd')).toEqual(['a', '', 'b', 'c', 'd']);
    expect(await linesOf('a\r\n')).toEqual(['a']);
    expect(await linesOf('')).toEqual([]);
  });

  it('joins a line and a \\r\\n cut by a chunk edge (64 KB reads), and multi-byte characters', async () => {
    const long = 'é'.repeat(40_000);
    const first = 'x'.repeat(64 * 1024 - 1);
    expect(await linesOf(`${first}\r\n${long}\nlast`)).toEqual([first, long, 'last']);
    const many = Array.from({ length: 20_000 }, (_, i) => `{"at":${i}}`);
    expect(await linesOf(`${many.join('\r\n')}\r\n`)).toEqual(many);
  });
});
