// Checks the one torn-tail rule: a whole last line gets its newline, a fragment is cut, nothing else moves.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repairTornTailOf } from './torn-tail.js';

const isObject = (line: string): boolean => {
  try {
    return typeof JSON.parse(line) === 'object';
  } catch {
    return false;
  }
};

function fileWith(content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'kbbench-torn-')), 'x.ndjson');
  writeFileSync(path, content);
  return path;
}

describe('repairTornTailOf', () => {
  it('leaves a file ending with a newline as it is', () => {
    const path = fileWith('{"a":1}\n{"a":2}\n');
    expect(repairTornTailOf(path, isObject)).toBe('whole');
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n{"a":2}\n');
  });
  it('completes a whole last line that lacks only its newline', () => {
    const path = fileWith('{"a":1}\n{"a":2}');
    expect(repairTornTailOf(path, isObject)).toBe('completed');
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n{"a":2}\n');
  });
  it('cuts a fragment back to the last whole line, also one longer than a read block', () => {
    const path = fileWith(`{"a":1}\n{"a":"${'x'.repeat(200_000)}`);
    expect(repairTornTailOf(path, isObject)).toBe('cut');
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n');
  });
  it('does nothing for a file that does not exist', () => {
    expect(repairTornTailOf(join(tmpdir(), 'kbbench-no-such-dir', 'x.ndjson'), isObject)).toBe('whole');
  });
});
