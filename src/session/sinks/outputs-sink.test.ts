import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRedactor } from '../../client/redact.js';
import { monotonicMs } from '../../runner/clock.js';
import { sampleWith } from '../../test-support/fixtures.js';
import { outputsConfigOf, outputsSink, prepareOutputs } from './outputs-sink.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const closedLoop = outputsConfigOf({ load: { spec: { kind: 'closed', concurrency: 2 } }, placement: {}, outputs: { reportsRoot: 'reports' } });

describe('outputs sink', () => {
  it('feeds the run\'s seconds to timeline.ndjson and, with no --output, reports none', async () => {
    const runDir = mkdtempSync(join(tmpdir(), 'kbbench-outputs-sink-'));
    dirs.push(runDir);
    const fails: string[] = [];
    const runStartMs = monotonicMs() - 1500;
    const sink = outputsSink(closedLoop, { runDir, runStartMs, redact: createRedactor([]) }, { fail: () => fails.push('fail') });
    sink.onEvent!({ type: 'start', id: 1, at_ms: runStartMs + 10, intended_at_ms: null });
    sink.onEvent!({ type: 'sample', sample: sampleWith({ offset_ms: 10 }) });
    sink.onEvent!({ type: 'settled', id: 1 });
    expect(await sink.close()).toEqual({ outputs: [] });
    const lines = readFileSync(join(runDir, 'timeline.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { t: number; starts: number });
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines.reduce((sum, l) => sum + l.starts, 0)).toBe(1);
    expect(fails).toEqual([]);
  });

  it('imports no output module when the run names none, or has no labels to give them', async () => {
    await expect(prepareOutputs({}, undefined)).resolves.toBeUndefined();
    await expect(prepareOutputs({ outputs: [] }, { runId: 'r', suite: 's', shard: '1/1', models: [] })).resolves.toBeUndefined();
  });
});
