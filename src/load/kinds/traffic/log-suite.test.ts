// The suite a log stands for when no suite file is named: empty, named and identified by the log.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { logSuite } from './log-suite.js';

describe('logSuite', () => {
  it('is named after the file, holds its sha256 and no cases, threads, target or models', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'log-suite-')), 'pilot-week.jsonl');
    writeFileSync(file, '{"at":0,"prompt":"a"}\n');
    const suite = await logSuite(file);
    expect(suite).toMatchObject({ name: 'pilot-week', path: file, target: {}, models: [], threads: [], cases: [] });
    expect(suite.sha256).toBe(createHash('sha256').update(readFileSync(file)).digest('hex'));
  });
});
