// Number formatting shared by the reports: rates never round to a false 100%, ticks and threshold values read true.
import { describe, expect, it } from 'vitest';
import { createSummarizer } from '../metrics/summarizer.js';
import { renderConsoleSummary } from './console-summary.js';
import { renderThresholds } from './html/issues.js';
import { syntheticSamples } from './test-support/synthetic-run.js';
import { formatRate, formatThresholdValue, formatTick, modelLabel } from './format.js';

describe('formatRate', () => {
  it('shows one decimal, and never rounds to 100% or 0% a rate that is not', () => {
    expect(formatRate(1)).toBe('100%');
    expect(formatRate(0)).toBe('0%');
    expect(formatRate(0.955)).toBe('95.5%');
    // 9,999 of 10,000 passed: the verdict is FAIL, so the rate must not read 100.0%.
    expect(formatRate(9999 / 10000)).toBe('>99.9%');
    expect(formatRate(1 / 100_000)).toBe('<0.1%');
    expect(formatRate(null)).toBe('–');
  });
});

describe('formatTick', () => {
  it('prints round numbers without trailing zeros', () => {
    expect([0, 2.5, 10, 40, 1000, 0.25, 12_500].map(formatTick)).toEqual(['0', '2.5', '10', '40', '1,000', '0.25', '12,500']);
    expect(formatTick(0.1 + 0.2)).toBe('0.3');
  });
});

describe('modelLabel', () => {
  it('says the service chose when the run named no model (results label it `default`)', () => {
    expect(modelLabel('default')).toBe('service default');
    expect(modelLabel('gpt-4o')).toBe('gpt-4o');
  });
});

describe('formatThresholdValue', () => {
  it('keeps small credits readable instead of rounding them to three decimals', () => {
    // Rounded to 0.001, this value sat beside `avg<0.001`, which it passed.
    expect(formatThresholdValue(0.000735)).toBe('0.000735');
    expect(formatThresholdValue(33.07250000001)).toBe('33.0725');
    expect(formatThresholdValue(0.95)).toBe('0.95');
    expect(formatThresholdValue(null)).toBe('no data');
  });

  it('is what the console and report.html show', () => {
    const summarizer = createSummarizer();
    syntheticSamples({ repeats: 1 }).forEach((s) => summarizer.add(s));
    const threshold = { metric: 'credits_per_request', expression: 'avg<0.001', scope: {}, value: 0.000735, pass: true };
    // A formatting test: the threshold's value is given, not judged.
    const summary = { ...summarizer.finish({ run_id: 'r', status: 'completed' }).summary, thresholds: [threshold] };
    expect(renderConsoleSummary(summary)).toContain('ok   credits_per_request avg<0.001 (value 0.000735)');
    expect(renderThresholds(summary.thresholds)).toContain('<td>0.000735</td>');
  });
});

describe('formatCredits (issue 33, item 7)', () => {
  it('prints every credit figure in the service’s 5 decimals, one column alike', async () => {
    const { formatCredits } = await import('./format.js');
    expect([0.361, 0.2509, 0.01103].map(formatCredits)).toEqual(['0.36100', '0.25090', '0.01103']);
    expect(formatCredits(9999.638971)).toBe('9,999.63897');
  });
});
