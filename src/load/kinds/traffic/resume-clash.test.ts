import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildLoadSpec, FLAG_NAMES, type LoadInput } from '../../index.js';
import type { TrafficLoad } from './index.js';
import { readTrafficSource } from './log-shape.js';
import { changedLog, replayClash } from './resume-clash.js';

const dir = mkdtempSync(join(tmpdir(), 'kbbench-resume-clash-'));
const file = join(dir, 'log.jsonl');
writeFileSync(file, '{"at": 0, "prompt": "a"}\n{"at": 2, "prompt": "b"}\n');
const source = await readTrafficSource(file);
const recorded = buildLoadSpec({ concurrency: 1, traffic: source, timeScale: 2, durationMs: 10_000 }) as TrafficLoad;
const clash = (input: Partial<LoadInput>) => replayClash(recorded, { concurrency: 1, ...input }, FLAG_NAMES);

describe('a replay\'s resume', () => {
  it('takes the flags it began with, or none', () => {
    expect(clash({})).toBeNull();
    expect(clash({ traffic: source, timeScale: 2, durationMs: 10_000, resume: true })).toBeNull();
  });

  it('refuses a flag that contradicts run.json, or another load, naming the flag', () => {
    expect(clash({ timeScale: 1 })).toMatch(/^--time-scale 1 contradicts the run's replay \(recorded in run.json: 2\)/);
    expect(clash({ loop: true })).toMatch(/^--loop true contradicts/);
    expect(clash({ durationMs: 20_000 })).toMatch(/^--duration 20000 contradicts .*10000/);
    expect(clash({ maxInFlight: 5 })).toMatch(/^--max-in-flight 5 contradicts/);
    expect(clash({ traffic: { ...source, file: join(dir, 'other.jsonl') } })).toMatch(/^--traffic .*other.jsonl contradicts/);
    expect(clash({ rate: 5 })).toMatch(/--rate asks for another load/);
  });

  it('refuses a log changed since the run read it, naming the file', () => {
    expect(changedLog(recorded)).toBeNull();
    writeFileSync(file, '{"at": 0, "prompt": "a"}\n{"at": 2, "prompt": "b"}\n{"at": 3, "prompt": "c"}\n');
    expect(changedLog(recorded)).toContain(`the log ${file} changed since the run began`);
    writeFileSync(file, '{"at": 0, "prompt": "a"}\n{"at": 2, "prompt": "B"}\n');
    utimesSync(file, new Date('2030-01-01T00:00:00Z'), new Date('2030-01-01T00:00:00Z'));
    expect(changedLog(recorded)).toMatch(/--allow-changed-suite/);
    expect(changedLog({ ...recorded, file: join(dir, 'gone.jsonl') })).toMatch(/which is gone/);
    // A run of an older kbbench recorded no stamp: nothing to compare.
    expect(changedLog({ ...recorded, shape: { ...recorded.shape, read: undefined } })).toBeNull();
  });
});
