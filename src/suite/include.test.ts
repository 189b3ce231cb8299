import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandPattern, isFileReference, resolveInclude } from './include.js';

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kbbench-include-'));
  mkdirSync(join(dir, 'docs'));
  mkdirSync(join(dir, 'docs', 'sub.md'));
  for (const name of ['b.md', 'a.md', 'c.txt']) writeFileSync(join(dir, 'docs', name), name);
  writeFileSync(join(dir, 'questions.csv'), 'id,prompt\n');
  return dir;
}

describe('include', () => {
  it('expands a file-name glob, sorted, files only', () => {
    const dir = folder();
    expect(expandPattern(join(dir, 'docs', '*.md'))).toEqual([join(dir, 'docs', 'a.md'), join(dir, 'docs', 'b.md')]);
    expect(expandPattern(join(dir, 'docs', 'none-*.md'))).toEqual([]);
    expect(expandPattern(join(dir, 'docs', 'sub.md'))).toEqual([]);
  });

  it('resolves file:// entries against the including file', () => {
    const dir = folder();
    const suite = join(dir, 'suite.yaml');
    expect(resolveInclude('file://questions.csv', suite)).toEqual([join(dir, 'questions.csv')]);
    expect(resolveInclude('file://docs/?.md', suite)).toEqual([join(dir, 'docs', 'a.md'), join(dir, 'docs', 'b.md')]);
    expect(resolveInclude('missing.csv', suite)).toEqual([]);
    expect(isFileReference('file://x')).toBe(true);
    expect(isFileReference('x')).toBe(false);
  });
});
