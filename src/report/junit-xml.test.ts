// Checks junit.xml: parsed back, the element tree and its counts, and escaping of answers.
import { describe, expect, it } from 'vitest';
import type { Sample } from '../domain/sample.js';
import { createSummarizer } from '../metrics/summarizer.js';
import { createEvidenceCollector } from './evidence.js';
import { renderJunitXml, xmlAttr, xmlEscape } from './junit-xml.js';
import { NASTY_ANSWER, syntheticSamples } from './test-support/synthetic-run.js';
import { parseXml } from './test-support/xml.js';

async function build(samples: Sample[]): Promise<string> {
  const summarizer = createSummarizer();
  const evidence = createEvidenceCollector();
  for (const s of samples) {
    summarizer.add(s);
    evidence.add(s);
  }
  const { cases } = summarizer.finish({ run_id: 'r', status: 'completed' });
  return renderJunitXml('support-faq', cases, evidence.result());
}

describe('renderJunitXml', () => {
  it('has a testsuite per model and a testcase per case × model and per turn, with counts', async () => {
    const tree = parseXml(await build(syntheticSamples({ repeats: 1 })));
    expect(tree.name).toBe('testsuites');
    expect(tree.children.map((s) => s.name)).toEqual(['testsuite', 'testsuite', 'testsuite']);
    const byName = Object.fromEntries(tree.children.map((s) => [s.attrs.name!, s]));
    const gpt = byName['support-faq · gpt-4o-mini']!;
    expect(gpt.attrs).toMatchObject({ tests: '6', failures: '1', errors: '0', skipped: '0' });
    expect(gpt.children.map((c) => c.attrs.name)).toEqual([
      'refund-window', 'shipping-times', 'escaping', 'onboarding turn 1', 'onboarding turn 2', 'onboarding turn 3',
    ]);
    const failure = gpt.children[0]!.children.find((c) => c.name === 'failure')!;
    expect(failure.attrs.message).toBe('failed checks: not-contains');
    expect(failure.text).toContain('FAIL not-contains: found "I don\'t know" <at> 12');
    const mistral = byName['support-faq · mistral-large']!;
    expect(mistral.attrs).toMatchObject({ tests: '6', failures: '0', errors: '1', skipped: '1' });
    const turn2 = mistral.children.find((c) => c.attrs.name === 'onboarding turn 2')!;
    expect(turn2.children[0]).toMatchObject({ name: 'error', attrs: { type: 'E_TIMEOUT', message: 'no first chunk within 30000 ms <timeout>' } });
    expect(mistral.children.find((c) => c.attrs.name === 'onboarding turn 3')!.children[0]!.name).toBe('skipped');
    expect(tree.attrs).toMatchObject({ tests: '18', failures: '1', errors: '1', skipped: '1' });
    for (const testcase of tree.children.flatMap((s) => s.children)) {
      expect(Object.keys(testcase.attrs).sort()).toEqual(['classname', 'name', 'time']);
    }
  });

  it('escapes answers so they read back exactly', async () => {
    const xml = await build(syntheticSamples({ repeats: 1 }));
    expect(xml).not.toContain('<script>');
    const tree = parseXml(xml);
    const outs = tree.children.flatMap((s) => s.children).filter((c) => c.attrs.name === 'escaping');
    expect(outs).toHaveLength(3);
    for (const testcase of outs) expect(testcase.children.find((c) => c.name === 'system-out')!.text).toBe(NASTY_ANSWER);
  });

  it('uses a reader that rejects malformed XML', () => {
    expect(() => parseXml('<a><b></a>')).toThrow();
    expect(() => parseXml('<a>x < y</a>')).toThrow();
    expect(parseXml('<a k="&lt;v&gt;">x &amp; y</a>')).toMatchObject({ attrs: { k: '<v>' }, text: 'x & y' });
  });

  it('escapes <&"\' and drops characters XML cannot carry', () => {
    expect(xmlEscape('a<b & "c" \'d\'')).toBe('a&lt;b &amp; &quot;c&quot; &apos;d&apos;');
    expect(xmlEscape('bell\u0007 ok\tok')).toBe('bell\uFFFD ok\tok');
  });

  it('keeps line breaks a parser would normalise: CR everywhere, LF and tab in attributes', () => {
    expect(xmlEscape('a\r\nb\tc')).toBe('a&#13;\nb\tc');
    expect(xmlAttr('a\r\nb\tc')).toBe('a&#13;&#10;b&#9;c');
  });

  it('names a conversation that could not be created as such, an error testcase of its own', async () => {
    const turn = syntheticSamples({ repeats: 1 }).find((s) => s.thread_id !== null && s.model === 'gpt-4o-mini')!;
    const create: Sample = { ...turn, item_id: 'thread:onboarding|model:gpt-4o-mini|r1|create', turn: null, endpoint: 'create', outcome: 'http_error', status: 503, error: { code: 'E_HTTP', message: 'line one\nline two' }, pass: false, text: '', checks: [] };
    const xml = await build([create, { ...turn, outcome: 'skipped', pass: false, text: '' }]);
    const cases = parseXml(xml).children[0]!.children;
    expect(cases.map((c) => [c.attrs.name, c.children[0]?.name])).toEqual([['onboarding: create conversation', 'error'], ['onboarding turn 1', 'skipped']]);
    expect(xml).toContain('message="line one&#10;line two"');
  });
});
