// The console, markdown and HTML renderings of a comparison: what they name, and that answer text is escaped.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareRuns } from './compare-runs.js';
import { renderCompareConsole } from './console.js';
import { renderCompareHtml } from './html/render.js';
import { escapeMarkdown, renderCompareMarkdown } from './markdown.js';
import { DEFAULT_COMPARE_OPTIONS } from './options.js';
import { NASTY_TEXT, sample, writeRun } from '../test-support/fixtures.js';
import type { Comparison } from './types.js';

let comparison: Comparison;

beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), 'kbbench-render-'));
  const base = writeRun(join(root, 'base'), [
    sample({ caseId: 'refund-window', text: 'We give a full refund within 30 days.' }),
    sample({ caseId: 'refund-window', model: 'gpt-4o-mini', text: 'Within 30 days.' }),
    sample({ threadId: 'plans', turn: 2, text: 'The Team plan costs €29.' }),
    sample({ caseId: 'nasty', text: 'plain' }),
    sample({ caseId: 'flaky', pass: false, text: 'I do not know' }),
  ]);
  const head = writeRun(join(root, 'head'), [
    sample({ caseId: 'refund-window', pass: false, text: 'We give a full refund within 45 days.' }),
    sample({ caseId: 'refund-window', model: 'gpt-4o-mini', pass: false, text: 'Within 45 days.' }),
    sample({ threadId: 'plans', turn: 2, pass: false, text: 'The Team plan costs €35.' }),
    sample({ caseId: 'nasty', text: NASTY_TEXT }),
    sample({ caseId: 'flaky', text: 'Yes.' }),
  ]);
  comparison = await compareRuns(base, head, DEFAULT_COMPARE_OPTIONS);
});

describe('console summary', () => {
  it('gives the verdict, the counts and names each regression with case and model', () => {
    const text = renderCompareConsole(comparison);
    expect(text).toMatch(/^compare: FAIL/);
    expect(text).toContain('3 regressions · 1 fixes · 5 changed answers');
    expect(text).toContain('✗ refund-window × gpt-4o: check 1 (contains) newly fails: expected to contain "30 days"');
    expect(text).toContain('✗ refund-window × gpt-4o-mini:');
    expect(text).toContain('✗ plans turn 2 × gpt-4o:');
    expect(text).toContain('fixes (fail → pass): flaky × gpt-4o');
    expect(text).toContain('failed on: 3 regressions (pass → fail)');
  });
});

describe('markdown summary', () => {
  it('fits a pull-request comment: verdict, counts, regressions, a model table', () => {
    const md = renderCompareMarkdown(comparison);
    expect(md.split('\n')[0]).toBe('### kbbench compare: ❌ FAIL');
    expect(md).toContain('| 5 | 3 | 1 | 5 | 0 | 0 |');
    expect(md).toContain('- **refund-window × gpt-4o**: check 1 (contains) newly fails: expected to contain "30 days"');
    expect(md).toContain('| model | pass rate |');
    expect(md).toMatch(/\| gpt-4o \| 75.0% → 50.0% \|/);
    expect(md).toContain('#### Other changed answers (least similar first)\n\n- nasty × gpt-4o: similarity 0.00\n');
  });

  it('escapes what markdown and HTML would interpret', () => {
    expect(escapeMarkdown(NASTY_TEXT)).toBe('Refunds &lt;script&gt;alert("x")&lt;/script&gt; \\| \\*within\\* \\[30\\](http://evil) days &amp; \\`more\\`');
    expect(escapeMarkdown('a\nb')).toBe('a b');
  });

  it('keeps an @mention in an answer from notifying anyone from the PR comment', () => {
    expect(escapeMarkdown('Ask @octocat or @acme/support, mail help@acme.com')).toBe('Ask @&#8203;octocat or @&#8203;acme/support, mail help@&#8203;acme.com');
    expect(escapeMarkdown('line\u2028break')).toBe('line break');
  });
});

describe('compare.html', () => {
  let html: string;
  beforeAll(() => {
    html = renderCompareHtml(comparison);
  });

  it('is self-contained: a CSP that forbids the network, inline style and script, no external URL', () => {
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/<(?:link|img|script)[^>]+(?:href|src)=/);
    expect(html).toContain('prefers-color-scheme: dark');
  });

  it('escapes answers and shows the word diff with <del>/<ins> and −/+ marks', () => {
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toMatch(/<del class="diff"><span class="sym" aria-hidden="true">−<\/span><span class="sr-only">removed: <\/span>30<\/del>/);
    expect(html).toMatch(/<ins class="diff"><span class="sym" aria-hidden="true">\+<\/span><span class="sr-only">added: <\/span>45<\/ins>/);
  });

  it('gives the verdict and outcomes in words and symbols, not colour alone', () => {
    expect(html).toContain('✗ FAIL');
    expect(html).toContain('✗ regression');
    expect(html).toContain('✓ fix');
    expect(html).toContain('= within noise');
  });
});

describe('the pass rate line', () => {
  it('is said the same way on the console, in markdown and in compare.html', () => {
    expect(comparison.pass_rate).toMatchObject({ items: 5, base: 0.8, head: 0.4 });
    // Five items: the interval is wide, and clipped to what a difference of pass rates can be.
    const line = 'pass rate 80.0% → 40.0% (−40.0 pts, 95% CI −100.0 to +100.0, p=0.45, 5 items): no significant change';
    expect(renderCompareConsole(comparison)).toContain(line);
    expect(renderCompareMarkdown(comparison)).toContain('pass rate 80.0% → 40.0%');
    expect(renderCompareHtml(comparison)).toContain(`<p class="pass-rate" data-verdict="no_difference">${line}</p>`);
  });
});
