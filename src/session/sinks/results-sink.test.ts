import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sample } from '../../domain/sample.js';
import { sample } from '../../test-support/fixtures.js';
import { resultsSink } from './results-sink.js';

const dirs: string[] = [];
const runDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'kbbench-results-sink-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('results sink', () => {
  it('appends each result and counts it only once its line is in the file (one write per turn)', async () => {
    const dir = runDir();
    const recorded: Sample[] = [];
    const sink = resultsSink(dir, { fail: () => undefined }, (s) => {
      // Counted only once the line is there: the file holds it already.
      expect(readFileSync(join(dir, 'results.ndjson'), 'utf8')).toContain(s.item_id);
      recorded.push(s);
    });
    const a = sample({ caseId: 'a' });
    const b = sample({ caseId: 'b', outcome: 'timeout' });
    sink.onEvent!({ type: 'sample', sample: a });
    sink.onEvent!({ type: 'start', id: 1, at_ms: 0, intended_at_ms: null });
    sink.onEvent!({ type: 'sample', sample: b });
    expect(recorded).toEqual([]);
    await turn();
    expect(recorded).toEqual([a, b]);
    expect(await sink.close()).toEqual({});
    const lines = readFileSync(join(dir, 'results.ndjson'), 'utf8').trim().split('\n');
    expect(lines.map((l) => JSON.parse(l) as Sample)).toEqual([a, b]);
  });

  it('close writes what is still queued and counts it', async () => {
    const dir = runDir();
    const recorded: string[] = [];
    const sink = resultsSink(dir, { fail: () => undefined }, (s) => recorded.push(s.item_id));
    sink.onEvent!({ type: 'sample', sample: sample({ caseId: 'late' }) });
    await sink.close();
    expect(recorded).toEqual(['case:late|model:gpt-4o|r1']);
  });
});
