import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../domain/errors.js';
import { logFormatOf, readLog, type LogEntry } from './read-log.js';

const dir = mkdtempSync(join(tmpdir(), 'traffic-log-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
async function all(path: string): Promise<LogEntry[]> {
  const out: LogEntry[] = [];
  for await (const entry of readLog(path)) out.push(entry);
  return out;
}
async function failure(path: string): Promise<InputError> {
  try {
    await all(path);
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('no error');
}

describe('readLog', () => {
  it('reads JSONL with seconds, conversations, options and checks', async () => {
    const path = file('a.jsonl', [
      '{"at": 0, "prompt": "Which plans?", "conversation": "c1", "user": "u1", "source": "web"}',
      '',
      '{"at": 1.5, "prompt": "And the second?", "conversation": "c1", "expected": "Pro", "assert": [{"icontains": "plan"}]}',
      '{"at": 2, "prompt": "Refunds?", "model": "gpt-4o", "additional_context": "Pro plan"}',
    ].join('\n'));
    const entries = await all(path);
    expect(entries.map((e) => e.offsetMs)).toEqual([0, 1500, 2000]);
    expect(entries[0]!.record).toMatchObject({ line: 1, conversation: 'c1', user: 'u1', source: 'web', checks: [] });
    expect(entries[1]!.record.line).toBe(3);
    expect(entries[1]!.record.checks).toEqual([{ type: 'contains', value: 'Pro' }, expect.objectContaining({ type: 'icontains', value: 'plan' })]);
    expect(entries[2]!.record).toMatchObject({ model: 'gpt-4o', additional_context: 'Pro plan' });
  });

  it('reads ISO timestamps as offsets from the first record', async () => {
    const path = file('iso.jsonl', '{"at":"2026-03-01T09:00:00Z","prompt":"a"}\n{"at":"2026-03-01T10:00:00.250+01:00","prompt":"b"}\n{"at":"2026-03-01T09:00:03Z","prompt":"c"}\n');
    expect((await all(path)).map((e) => e.offsetMs)).toEqual([0, 250, 3000]);
  });

  it('reads CSV with quoted newlines, a BOM and __expected columns, naming the start line', async () => {
    const path = file('a.csv', '\uFEFFat,prompt,conversation,expected,__expected1\n0,"Line one\nline two",c1,30 days,\n2.5,Next,c1,,regex: \\b30\\b\n');
    const entries = await all(path);
    expect(entries.map((e) => [e.record.line, e.offsetMs, e.record.prompt])).toEqual([[2, 0, 'Line one\nline two'], [4, 2500, 'Next']]);
    expect(entries[0]!.record.checks).toEqual([{ type: 'contains', value: '30 days' }]);
    expect(entries[1]!.record.checks[0]).toMatchObject({ type: 'regex' });
  });

  it('names file, line and field of a bad record', async () => {
    const bad = await failure(file('bad.jsonl', '{"at":0,"prompt":"a"}\n{"at":"soon","prompt":"b"}\n'));
    expect(bad.describe()).toMatch(/bad\.jsonl:2 at: "soon" is neither seconds/);
    expect((await failure(file('typo.jsonl', '{"at":0,"promt":"a"}\n'))).location).toMatchObject({ line: 1, field: 'promt' });
    expect((await failure(file('np.jsonl', '{"at":0}\n'))).location).toMatchObject({ line: 1, field: 'prompt' });
    expect((await failure(file('json.jsonl', '{"at":0,\n'))).describe()).toMatch(/json\.jsonl:1 not JSON/);
    expect((await failure(file('check.jsonl', '{"at":0,"prompt":"a","assert":[{"contans":"x"}]}\n'))).location).toMatchObject({ field: 'assert[0]' });
    expect((await failure(file('col.csv', 'at,prompt,thread\n0,a,t\n'))).location).toMatchObject({ line: 1, field: 'thread' });
    expect((await failure(file('cell.csv', 'at,prompt,__expected\n0,a,plain words\n'))).location).toMatchObject({ line: 2, field: '__expected' });
    expect(() => logFormatOf(join(dir, 'log.txt'))).toThrow(/\.jsonl .* or \.csv/);
  });

  it('reads nothing a user wrote as something else: a repeated column, a cell past the header, a null field', async () => {
    const twice = await failure(file('twice.csv', 'at,prompt,prompt\n0,x,y\n'));
    expect(twice.describe()).toMatch(/twice\.csv:1 prompt: column 3 "prompt" repeats column 2/);
    const past = await failure(file('past.csv', 'at,prompt\n0,x,extra\n'));
    expect(past.describe()).toMatch(/past\.csv:2 cell 3 is past the header's 2 columns/);
    expect((await failure(file('null.jsonl', '{"at":0,"prompt":"x","model":null}\n'))).location).toMatchObject({ line: 1, field: 'model' });
    // Two __expected columns are two checks, and a short row's missing cells are empty.
    expect((await all(file('two.csv', 'at,prompt,__expected,__expected\n0,x,contains:a,contains:b\n1,y\n'))).map((e) => e.record.checks.length)).toEqual([2, 0]);
  });

  it('refuses a log out of order or mixing seconds and timestamps', async () => {
    expect((await failure(file('order.jsonl', '{"at":2,"prompt":"a"}\n{"at":1,"prompt":"b"}\n'))).describe()).toMatch(/order\.jsonl:2 at: .*sort it by at/);
    expect((await failure(file('mix.jsonl', '{"at":0,"prompt":"a"}\n{"at":"2026-03-01T09:00:00Z","prompt":"b"}\n'))).location).toMatchObject({ line: 2, field: 'at' });
  });
});
