// A case's entry: keys and labels, a sample's contribution, run order, and which case is worse.
import { describe, expect, it } from 'vitest';
import { syntheticSamples } from '../report/test-support/synthetic-run.js';
import { addTotals, caseKeyOf, compareWorst, newEntry, orderEntries, toCaseSummary, totalsOfSample, type CaseEntry } from './case-entry.js';

const base = syntheticSamples({ repeats: 1 })[0]!;

function entryOf(caseId: string, offsetMs: number, over: Partial<typeof base> = {}): CaseEntry {
  const sample = { ...base, case_id: caseId, offset_ms: offsetMs, ...over };
  const entry = newEntry(sample);
  addTotals(entry, sample.model, totalsOfSample(sample), sample.offset_ms);
  return entry;
}

describe('case entries', () => {
  it('keys cases and turns apart', () => {
    expect(caseKeyOf({ case_id: 'a', thread_id: null, turn: null, item_id: 'x' })).toBe('case:a');
    expect(caseKeyOf({ case_id: null, thread_id: 't', turn: 2, item_id: 'x' })).toBe('thread:t#2');
    expect(caseKeyOf({ case_id: null, thread_id: 't', turn: null, item_id: 'x' })).toBe('thread:t#create');
  });

  it('orders worse first: failures and errors, then slower, then by key', () => {
    const failing = entryOf('f', 0, { pass: false });
    const slow = entryOf('s', 1, { latency_ms: 9000 });
    const fast = entryOf('a', 2, { latency_ms: 1 });
    const fast2 = entryOf('b', 3, { latency_ms: 1 });
    expect([fast2, fast, slow, failing].sort(compareWorst).map((e) => e.key)).toEqual(['case:f', 'case:s', 'case:a', 'case:b']);
    expect(orderEntries([fast2, slow, failing, fast]).map((e) => e.key)).toEqual(['case:f', 'case:s', 'case:a', 'case:b']);
  });

  it('writes summary.json’s cell with credits from exact units, models in report order', () => {
    const entry = entryOf('c', 0, { credits_used: 0.1 });
    addTotals(entry, 'other', totalsOfSample({ ...base, model: 'other', outcome: 'skipped', pass: false }), 5);
    expect(Object.keys(toCaseSummary(entry, ['other', base.model]).models)).toEqual(['other', base.model]);
    expect(toCaseSummary(entry, [base.model]).models[base.model]).toMatchObject({ requests: 1, credits_used: 0.1 });
  });
});
