// Matching items across runs: repeats pooled by majority, regressions, fixes, changed, missing and added.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../domain/sample.js';
import { answerKey, digestRun, itemKeyOf, majorityPass, representativeText } from './collect.js';
import { matchItems } from './items.js';
import { itemLabel } from './labels.js';
import { runInfo, sample, writeRun } from '../test-support/fixtures.js';

async function digestOf(samples: Sample[]) {
  const dir = writeRun(join(mkdtempSync(join(tmpdir(), 'kbbench-items-')), 'run'), samples);
  return digestRun(dir, runInfo());
}

describe('item keys and majorities', () => {
  it('drops only the repeat suffix', () => {
    expect(itemKeyOf('case:refund-window|model:gpt-4o|r12')).toBe('case:refund-window|model:gpt-4o');
    expect(itemKeyOf('thread:t|turn:2|model:m|r1')).toBe('thread:t|turn:2|model:m');
    expect(itemKeyOf('case:r1|model:x')).toBe('case:r1|model:x');
    // A conversation that could not be created: its repeats pool like any item's.
    expect(itemKeyOf('thread:t|model:m|r3|create')).toBe('thread:t|model:m|create');
  });

  it("pools an open loop's passes through the plan (|cN) with the first pass", async () => {
    expect(itemKeyOf('case:refund-window|model:gpt-4o|r1|c7')).toBe('case:refund-window|model:gpt-4o');
    const passes = [1, 2, 3].map((cycle) => {
      const s = sample({ text: `pass ${cycle}` });
      return cycle === 1 ? s : { ...s, item_id: `${s.item_id}|c${cycle}` };
    });
    const d = await digestOf(passes);
    expect([...d.items.keys()]).toEqual(['case:refund-window|model:gpt-4o']);
    expect(d.items.get('case:refund-window|model:gpt-4o')!.runs).toBe(3);
  });

  it('passes an item when strictly more than half its repeats pass', () => {
    expect(majorityPass({ runs: 3, passed: 2 })).toBe(true);
    expect(majorityPass({ runs: 2, passed: 1 })).toBe(false);
    expect(majorityPass({ runs: 1, passed: 1 })).toBe(true);
    expect(majorityPass({ runs: 0, passed: 0 })).toBe(false);
  });

  it('represents repeats by their most common answer, the earliest on a tie', async () => {
    const d = await digestOf([
      sample({ repeat: 2, text: 'B' }), sample({ repeat: 1, text: 'A' }), sample({ repeat: 3, text: 'B' }),
      sample({ caseId: 'tie', repeat: 2, text: 'late' }), sample({ caseId: 'tie', repeat: 1, text: 'early' }),
    ]);
    expect(representativeText(d.items.get('case:refund-window|model:gpt-4o')!)).toBe('B');
    expect(representativeText(d.items.get('case:tie|model:gpt-4o')!)).toBe('early');
  });
});

describe('matchItems', () => {
  it('finds regressions, fixes, changed answers, missing and added items', async () => {
    const base = await digestOf([
      sample({ caseId: 'refund-window', pass: true, text: 'within 30 days' }),
      sample({ caseId: 'team-price', pass: false, text: 'I do not know' }),
      sample({ caseId: 'soc2', pass: true, text: 'SOC 2 Type II' }),
      sample({ caseId: 'gone', pass: true }),
    ]);
    const head = await digestOf([
      sample({ caseId: 'refund-window', pass: false, text: 'within 45 days' }),
      sample({ caseId: 'team-price', pass: true, text: '€29 per agent' }),
      sample({ caseId: 'soc2', pass: true, text: 'SOC 2 Type II\n' }),
      sample({ caseId: 'new-one', pass: true }),
    ]);
    const m = matchItems(base.items, head.items);
    expect(m.regressions.map((r) => r.item_id)).toEqual(['case:refund-window|model:gpt-4o']);
    expect(m.fixes.map((r) => r.item_id)).toEqual(['case:team-price|model:gpt-4o']);
    expect(m.changed.map((r) => r.item_id).sort()).toEqual(['case:refund-window|model:gpt-4o', 'case:team-price|model:gpt-4o']);
    expect(m.missing.map((r) => r.item_id)).toEqual(['case:gone|model:gpt-4o']);
    expect(m.added.map((r) => r.item_id)).toEqual(['case:new-one|model:gpt-4o']);
    const regression = m.regressions[0]!;
    expect(regression.item_ids).toEqual(['case:refund-window|model:gpt-4o|r1']);
    expect(regression.head.failed_checks).toEqual(['contains: expected to contain "30 days"']);
    expect(regression.similarity).toBeGreaterThan(0);
    expect(regression.similarity).toBeLessThan(1);
    expect(regression.diff).toContainEqual({ op: '+', text: '45' });
  });

  it('pools repeats: 2 of 3 passing is still a pass, 1 of 3 a regression', async () => {
    const base = await digestOf([1, 2, 3].flatMap((r) => [sample({ caseId: 'a', repeat: r }), sample({ caseId: 'b', repeat: r })]));
    const head = await digestOf([
      sample({ caseId: 'a', repeat: 1 }), sample({ caseId: 'a', repeat: 2, pass: false }), sample({ caseId: 'a', repeat: 3 }),
      sample({ caseId: 'b', repeat: 1, pass: false }), sample({ caseId: 'b', repeat: 2 }), sample({ caseId: 'b', repeat: 3, pass: false }),
    ]);
    const m = matchItems(base.items, head.items);
    expect(m.matched).toHaveLength(2);
    expect(m.regressions.map((r) => [r.case_id, r.head.passed, r.head.runs])).toEqual([['b', 1, 3]]);
  });

  it('matches a base run with one repeat against a head with three', async () => {
    const base = await digestOf([sample({ caseId: 'a' })]);
    const head = await digestOf([1, 2, 3].map((r) => sample({ caseId: 'a', repeat: r })));
    const m = matchItems(base.items, head.items);
    expect(m.missing).toHaveLength(0);
    expect(m.added).toHaveLength(0);
    expect(m.changed).toHaveLength(0);
  });

  it('orders cases before thread turns, by id, turn and model', async () => {
    const samples = [
      sample({ threadId: 'plans', turn: 2 }), sample({ threadId: 'plans', turn: 1 }),
      sample({ caseId: 'b', model: 'gpt-4o-mini' }), sample({ caseId: 'b', model: 'gpt-4o' }), sample({ caseId: 'a' }),
    ];
    const base = await digestOf(samples.map((s) => ({ ...s, pass: true })));
    const head = await digestOf(samples.map((s) => ({ ...s, pass: false })));
    expect(matchItems(base.items, head.items).regressions.map((r) => r.item_id)).toEqual([
      'case:a|model:gpt-4o', 'case:b|model:gpt-4o', 'case:b|model:gpt-4o-mini',
      'thread:plans|turn:1|model:gpt-4o', 'thread:plans|turn:2|model:gpt-4o',
    ]);
  });

  it('counts a skipped turn as a failure of its item and a request error by its code', async () => {
    const base = await digestOf([sample({ threadId: 't', turn: 2 })]);
    const head = await digestOf([sample({ threadId: 't', turn: 2, outcome: 'skipped', pass: false, latencyMs: 0 })]);
    const m = matchItems(base.items, head.items);
    expect(m.regressions).toHaveLength(1);
    expect(m.regressions[0]!.head.errors).toEqual(['E_SERVER']);
    expect(head.models.get('gpt-4o')!.requests).toBe(0);
  });

  it('pools the repeats of a conversation that could not be created, and names it', async () => {
    const create = (repeat: number): Sample => ({
      ...sample({ threadId: 't', repeat, outcome: 'http_error', pass: false }),
      item_id: `thread:t|model:gpt-4o|r${repeat}|create`, turn: null, endpoint: 'create',
    });
    const base = await digestOf([sample({ threadId: 't', turn: 1 }), sample({ threadId: 't', turn: 1, repeat: 2 })]);
    const head = await digestOf([create(1), create(2)]);
    const m = matchItems(base.items, head.items);
    expect(m.added.map((a) => [a.item_id, a.side.runs, itemLabel(a)])).toEqual([['thread:t|model:gpt-4o|create', 2, 't: create conversation × gpt-4o']]);
    expect(m.missing.map((a) => itemLabel(a))).toEqual(['t turn 1 × gpt-4o']);
  });
});

describe('regressions per check (issue 19 item 7)', () => {
  const withChecks = (caseId: string, checks: { type: string; pass: boolean | null; detail: string }[], repeat = 1): Sample => ({
    ...sample({ caseId, repeat, pass: checks.every((c) => c.pass === true) }),
    checks: checks as Sample['checks'],
  });
  const has72 = { type: 'contains', pass: true, detail: 'contains "72 hours"' };
  const lacks72 = { type: 'contains', pass: false, detail: 'expected to contain "72 hours"' };
  const lacksSms = { type: 'icontains', pass: false, detail: 'expected to contain "sms"' };
  const hasSms = { type: 'icontains', pass: true, detail: 'contains "sms"' };
  const notJudged = { type: 'llm-rubric', pass: null, detail: 'not judged: the grader timed out' };
  const judgedPass = { type: 'llm-rubric', pass: true, detail: 'PASS' };

  it('a check that newly fails on an item that already failed another is a regression, named with the check', async () => {
    const base = await digestOf([withChecks('pickup-window', [has72, lacksSms])]);
    const head = await digestOf([withChecks('pickup-window', [lacks72, lacksSms])]);
    const m = matchItems(base.items, head.items);
    expect(m.regressions).toHaveLength(1);
    expect(m.regressions[0]!.newly_failed_checks).toEqual([{ check: 1, type: 'contains', detail: 'expected to contain "72 hours"' }]);
    expect(m.fixes).toHaveLength(0);
  });

  it('a check that keeps failing, or fails only in some repeats (no majority), is not one', async () => {
    const base = await digestOf([withChecks('a', [lacks72, lacksSms]), withChecks('b', [has72, lacksSms], 1), withChecks('b', [has72, lacksSms], 2), withChecks('b', [has72, lacksSms], 3)]);
    const head = await digestOf([withChecks('a', [lacks72, lacksSms]), withChecks('b', [lacks72, lacksSms], 1), withChecks('b', [has72, lacksSms], 2), withChecks('b', [has72, lacksSms], 3)]);
    expect(matchItems(base.items, head.items).regressions).toEqual([]);
  });

  it('a check not judged (pass: null) is never a regression, and an item failed only by it is not one either', async () => {
    const base = await digestOf([withChecks('a', [has72, judgedPass]), withChecks('b', [lacks72, judgedPass])]);
    const head = await digestOf([withChecks('a', [has72, notJudged]), withChecks('b', [lacks72, notJudged])]);
    const m = matchItems(base.items, head.items);
    expect(m.regressions).toEqual([]);
    expect(head.items.get('case:a|model:gpt-4o')!.failedChecks).toEqual([]);
  });

  it('checks are matched by position and type: a reordered assert list is no regression', async () => {
    const base = await digestOf([withChecks('a', [has72, lacksSms])]);
    const head = await digestOf([withChecks('a', [hasSms, lacks72])]);
    expect(matchItems(base.items, head.items).regressions).toEqual([]);
  });
});

describe('answers cut in compare outputs (issue 20 item 19)', () => {
  it('keeps 8,000 characters of an answer, says how long it was, and still sees a change past the cut', async () => {
    const long = 'word '.repeat(100_000);
    const base = await digestOf([sample({ text: `${long}end A` }), sample({ caseId: 'same', text: long })]);
    const head = await digestOf([sample({ text: `${long}end B` }), sample({ caseId: 'same', text: `${long}  ` })]);
    const m = matchItems(base.items, head.items);
    expect(m.changed.map((c) => c.case_id)).toEqual(['refund-window']);
    const change = m.changed[0]!;
    expect(change.head.text).toHaveLength(8000);
    expect(change.head.text_cut).toEqual({ shown: 8000, chars: long.length + 5 });
    expect(JSON.stringify(m).length).toBeLessThan(100_000);
  });
});

describe('answerKey', () => {
  it('is the digest of the whitespace-normalised text, however the text is cut into pieces', () => {
    const whole = (text: string) => answerKey(text, Number.MAX_SAFE_INTEGER);
    const texts = ['', '   ', 'a', ' a  b ', 'a \n\t b', 'x😀y', 'a  ', '  a', 'ab cd  ef\n\ngh ', '😀 😀  😀'];
    for (const text of texts) {
      for (const piece of [1, 2, 3, 5]) expect(answerKey(text, piece), JSON.stringify([text, piece])).toBe(whole(text));
    }
    expect(whole('a  b\n')).toBe(whole('a b'));
    expect(whole('a b')).not.toBe(whole('ab'));
  });
});
