// compare shows a person's label that changed between two runs of the same items.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../domain/sample.js';
import { LABELS_HEADER, labelRows } from '../graders/run-labels.js';
import { appendLabelRows } from '../store/labels-file.js';
import { labelChanges } from './label-changes.js';

const answer = (itemId: string): Sample => ({ item_id: itemId, text: 'a', prompt: 'q', pass: true, checks: [{ type: 'contains', pass: true, detail: '' }] }) as Sample;
const at = '2026-11-28T05:00:00.000Z';

describe('labelChanges', () => {
  it('lists items labelled in both runs with different verdicts, and nothing without labels', () => {
    const base = mkdtempSync(join(tmpdir(), 'kbbench-lc-'));
    const head = mkdtempSync(join(tmpdir(), 'kbbench-lc-'));
    expect(labelChanges(base, head)).toEqual([]);
    appendLabelRows(base, LABELS_HEADER, labelRows(answer('a'), undefined, { human: true, note: '', at }) + labelRows(answer('b'), undefined, { human: true, note: '', at }));
    appendLabelRows(head, LABELS_HEADER, labelRows(answer('a'), undefined, { human: false, note: 'now wrong', at }));
    appendLabelRows(head, LABELS_HEADER, labelRows(answer('b'), undefined, { human: true, note: '', at }));
    expect(labelChanges(base, head)).toEqual([{ item_id: 'a', base: 'pass', head: 'fail', base_note: '', head_note: 'now wrong' }]);
  });
});
