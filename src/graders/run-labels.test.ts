// labels.csv of a run: rows per answer × check, read back last-wins, and read as they are by grader-check.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../domain/sample.js';
import { readLabels } from './labels.js';
import { answerLabels, LABELS_HEADER, labelRows, parseRunLabels } from './run-labels.js';

const sample = (over: Partial<Sample> = {}): Sample =>
  ({
    item_id: 'case:pin|model:m|r1', prompt: 'Why a PIN?', text: 'Because, "two-factor"\nunlock.', pass: true, outcome: 'ok', model: 'm',
    checks: [
      { type: 'contains', pass: true, detail: 'found' },
      { type: 'judge', pass: true, detail: 'grader says PASS' },
      { type: 'context-faithfulness', pass: null, detail: '', not_judged: 'timeout' },
    ],
    ...over,
  }) as Sample;
const specs = [{ type: 'contains', value: 'PIN' }, { type: 'judge', value: { rubric: 'Mentions "two-factor".' } }, { type: 'context-faithfulness', value: {} }] as const;
const at = '2026-11-28T05:00:00.000Z';

describe('labels.csv rows', () => {
  it('writes one row per check with the grader\'s verdict, and reads the last row of each item × check', () => {
    const text = LABELS_HEADER + labelRows(sample(), [...specs], { human: false, note: 'misses €500, "x"', at }) + labelRows(sample(), [...specs], { human: true, note: '', at });
    const labels = parseRunLabels(text, 'labels.csv');
    expect(labels.size).toBe(3);
    expect(labels.get('case:pin|model:m|r1#2:judge')).toMatchObject({ type: 'judge', human: true, grader: 'pass' });
    expect(labels.get('case:pin|model:m|r1#3:context-faithfulness')).toMatchObject({ grader: 'not judged' });
    expect(answerLabels(labels).get('case:pin|model:m|r1')).toEqual({ human: true, note: '' });
  });

  it('takes a label back (undo: no verdict) and labels an answer without checks', () => {
    const bare = sample({ item_id: 'case:bare|model:m|r1', checks: [] });
    const text = LABELS_HEADER + labelRows(bare, undefined, { human: true, note: '', at }) + labelRows(sample(), undefined, { human: false, note: '', at }) + labelRows(sample(), undefined, { human: null, note: '', at });
    const answers = answerLabels(parseRunLabels(text, 'labels.csv'));
    expect([...answers.keys()]).toEqual(['case:bare|model:m|r1']);
  });

  it('is read by grader-check LABELS.csv as it is: the last label of each check a grader can grade from the row', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kbbench-labels-'));
    const file = join(dir, 'labels.csv');
    writeFileSync(file, LABELS_HEADER + labelRows(sample(), [...specs], { human: true, note: '', at }) + labelRows(sample(), [...specs], { human: false, note: 'no', at }));
    const rows = readLabels(file);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: 'case:pin|model:m|r1#2:judge', human: false, answer: 'Because, "two-factor"\nunlock.', spec: { type: 'judge', value: { rubric: 'Mentions "two-factor".' } } });
  });

  it('names the line of a row that is not a label', () => {
    expect(() => parseRunLabels(`${LABELS_HEADER}x,q,a,,,judge,maybe,,i,1:judge,pass,${at}\n`, 'labels.csv')).toThrow(/expected pass, fail or nothing/);
    expect(() => parseRunLabels(`${LABELS_HEADER}x,q,a,,,judge,pass,,,1:judge,pass,${at}\n`, 'labels.csv')).toThrow(/item_id/);
  });
});
