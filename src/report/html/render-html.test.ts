// report.html's edge cases as markup: a failed conversation, control characters, no credits, odd model names, axes.
import { describe, expect, it } from 'vitest';
import type { Sample } from '../../domain/sample.js';
import { createSummarizer } from '../../metrics/summarizer.js';
import { createEvidenceCollector } from '../evidence.js';
import { syntheticRunInfo, syntheticSamples } from '../test-support/synthetic-run.js';
import { logTicks } from './chart-frame.js';
import { renderHtmlReport } from './render-html.js';

function render(samples: Sample[]): string {
  const summarizer = createSummarizer();
  const evidence = createEvidenceCollector();
  for (const s of samples) {
    summarizer.add(s);
    evidence.add(s);
  }
  const { summary, details } = summarizer.finish({ run_id: 'r', status: 'completed' });
  return renderHtmlReport({ run: syntheticRunInfo('/tmp/run'), summary, details, evidence: evidence.result() });
}

const SAMPLES = syntheticSamples({ repeats: 1 });

describe('renderHtmlReport', () => {
  it('shows a conversation that could not be created as its own row, not as a turn with turn 1’s prompt', () => {
    const turns = SAMPLES.filter((s) => s.thread_id !== null && s.model === 'claude-sonnet-4-6');
    const create: Sample = { ...turns[0]!, item_id: 'thread:onboarding|model:claude-sonnet-4-6|r1|create', turn: null, endpoint: 'create', outcome: 'http_error', status: 503, error: { code: 'E_HTTP', message: 'unavailable' }, pass: false, checks: [], text: '', ttfc_ms: null, latency_ms: null, credits_used: null };
    const skipped = turns.map((t): Sample => ({ ...t, outcome: 'skipped', pass: false, error: { code: 'E_SKIPPED', message: 'conversation could not be created (E_HTTP)' } }));
    const html = render([...SAMPLES.filter((s) => !turns.includes(s)), create, ...skipped]);
    expect(html).toContain('Thread onboarding <span class="note">· 3 turns, in order; creating the conversation failed at least once</span>');
    expect(html).toContain('<th scope="row" class="turn">create conversation</th>');
    expect(html).not.toMatch(/class="turn">turn <\/th>|[ >]turn 0[ <]|Turn <\/h4>/);
    expect(html).toContain('<h4>Creating the conversation</h4><p class="note">Opening the conversation (no message is sent)');
    expect(html).toContain('Thread onboarding · 3 turns</h3>');
    // A skipped turn's reason is a note, not a second error in red.
    expect(html).toContain('<p class="note">Not sent: conversation could not be created (E_HTTP).</p>');
    expect(html).not.toContain('answer-error">E_SKIPPED');
  });

  it('turns control characters from answers into U+FFFD (HTML parse errors otherwise)', () => {
    const html = render(SAMPLES.map((s) => ({ ...s, text: `a\u0000b\u0001c\u0008d\u001be\u007ff\tg` })));
    expect(html).toContain('a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf\tg');
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    expect(html).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/);
  });

  it('says so in a sentence when no credits were reported, instead of charts of zeros', () => {
    const html = render(SAMPLES.map((s) => ({ ...s, credits_used: null, credits_unknown: true })));
    expect(html).toContain('<figcaption>Credits by model</figcaption><p class="note">No credits were spent or reported.');
    expect(html).not.toContain('Credits by case');
  });

  it('renders every model, whatever its name', () => {
    const html = render(SAMPLES.map((s) => ({ ...s, model: s.model === 'gpt-4o-mini' ? 'constructor' : s.model === 'mistral-large' ? '__proto__' : s.model })));
    expect(html).toContain('<tr data-model="constructor">');
    expect(html).toContain('<tr data-model="__proto__">');
    expect(html.match(/data-model="__proto__"/g)!.length).toBeGreaterThan(6);
  });

  it('stays a reasonable size for a suite of 20,000 one-time cases (the matrix shows 500, problems first)', () => {
    const base = SAMPLES[0]!;
    const many = Array.from({ length: 20_000 }, (_, i): Sample => ({
      ...base, case_id: `case-${i}`, item_id: `case:case-${i}|model:${base.model}|r1`, offset_ms: i, prompt: `Question ${i} ${'x'.repeat(300)}`,
      text: 'An answer of some length. '.repeat(40), pass: i % 1000 !== 999, checks: [],
    }));
    const html = render(many);
    // Unbounded: a row and an answer panel per case, about 40 MB here.
    expect(html.length).toBeLessThan(2_500_000);
    expect(html).toContain('Showing 500 of 20,000 cases and turns');
    expect(html).toContain('>case-999<');
    expect(html).toContain('>case-19999<');
  });

  it('labels axes with round numbers (0, 10, 20), not 0.00 or 40.0', () => {
    const html = render(SAMPLES.map((s) => ({ ...s, ttfc_ms: 12 + s.offset_ms / 100, latency_ms: 30 + s.offset_ms / 100 })));
    expect(html).not.toMatch(/text-anchor="end">(0\.00|\d+\.0)</);
    expect(html).toMatch(/text-anchor="end">0</);
  });
});

describe('logTicks', () => {
  it('gives at least three ticks on a narrow range', () => {
    expect(logTicks(1, 1000)).toEqual([1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]);
    expect(logTicks(900, 1600).length).toBeGreaterThanOrEqual(3);
    expect(logTicks(900, 1600)).toEqual([900, 1000, 1200, 1500]);
  });
});
