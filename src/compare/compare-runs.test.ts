// compareRuns on synthetic run directories: latency and credits judged with noise in mind, verdicts, bad input.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../domain/errors.js';
import type { Sample } from '../domain/sample.js';
import { createSummarizer } from '../metrics/summarizer.js';
import { compareRuns } from './compare-runs.js';
import { DEFAULT_COMPARE_OPTIONS } from './options.js';
import { logNormalSample, sample, writeRun } from '../test-support/fixtures.js';
import type { CompareOptions } from './types.js';

const MODELS = ['gpt-4o', 'gpt-4o-mini'];
const root = mkdtempSync(join(tmpdir(), 'kbbench-compare-'));
let counter = 0;

interface RunShape {
  seed: number;
  items?: number;
  /** model → factor applied to its latencies (and TTFC). */
  slower?: Record<string, number>;
  sigma?: number;
  /** ms between one item's median latency and the next (0: every item alike). */
  spread?: number;
  creditsFactor?: number;
  failing?: string[];
}

/** `items` cases per model; latency log-normal around a per-item median, credits a per-item constant. */
function run(shape: RunShape, extra: Sample[] = []): string {
  const n = shape.items ?? 30;
  const samples: Sample[] = [];
  MODELS.forEach((model, mi) => {
    const noise = logNormalSample(shape.seed * 7 + mi, n, 1, shape.sigma ?? 0.3);
    for (let i = 0; i < n; i++) {
      const factor = shape.slower?.[model] ?? 1;
      const itemMs = 200 + (shape.spread ?? 15) * i;
      const caseId = `c${i}`;
      samples.push(sample({
        caseId, model, latencyMs: itemMs * noise[i]! * factor, ttfcMs: 0.5 * itemMs * noise[i]! * factor,
        credits: (0.001 + 0.0005 * i) * (shape.creditsFactor ?? 1), pass: !(shape.failing ?? []).includes(caseId), text: `answer ${i}`,
      }));
    }
  });
  return writeRun(join(root, `run-${counter++}`), [...samples, ...extra]);
}

const options = (o: Partial<CompareOptions> = {}): CompareOptions => ({ ...DEFAULT_COMPARE_OPTIONS, ...o });

describe('compareRuns', () => {
  it('passes two runs of the same service (different noise), across seeds', async () => {
    for (let seed = 1; seed <= 20; seed++) {
      const c = await compareRuns(run({ seed }), run({ seed: seed + 1000 }), options());
      expect(c.verdict, `seed ${seed}: ${c.reasons.join('; ')}`).toBe('pass');
    }
  });

  it('fails on a clear latency rise of one model, naming that model only', async () => {
    const c = await compareRuns(run({ seed: 1 }), run({ seed: 2, slower: { 'gpt-4o-mini': 1.6 } }), options());
    expect(c.verdict).toBe('fail');
    expect(c.models['gpt-4o-mini']!.latency_ms.regression).toBe(true);
    expect(c.models['gpt-4o-mini']!.latency_ms.test.p_adjusted).toBeLessThan(0.01);
    expect(c.models['gpt-4o']!.latency_ms.regression).toBe(false);
    expect(c.reasons.join('\n')).toMatch(/gpt-4o-mini: latency median \+/);
    expect(c.reasons.join('\n')).not.toMatch(/^gpt-4o:/m);
  });

  it('does not fail on a significant rise smaller than the tolerance', async () => {
    const steady = { sigma: 0.005, spread: 0 };
    const c = await compareRuns(run({ seed: 1, ...steady }), run({ seed: 2, ...steady, slower: { 'gpt-4o': 1.05 } }), options());
    const t = c.models['gpt-4o']!.latency_ms;
    expect(t.test.significant).toBe(true);
    expect(t.regression).toBe(false);
    expect(c.verdict).toBe('pass');
    const strict = await compareRuns(run({ seed: 1, ...steady }), run({ seed: 2, ...steady, slower: { 'gpt-4o': 1.05 } }), options({ latencyTolerance: 0.02 }));
    expect(strict.verdict).toBe('fail');
  });

  it('reports a latency fall as an improvement, never a failure', async () => {
    const c = await compareRuns(run({ seed: 3, slower: { 'gpt-4o': 1.8 } }), run({ seed: 4 }), options());
    expect(c.models['gpt-4o']!.latency_ms.improvement).toBe(true);
    expect(c.verdict).toBe('pass');
  });

  it('fails on credits per request up 20%, not on 3%', async () => {
    const up = await compareRuns(run({ seed: 1 }), run({ seed: 2, creditsFactor: 1.2 }), options());
    expect(up.models['gpt-4o']!.credits_per_request).toMatchObject({ regression: true, test: { significant: true, matched_items: 30 } });
    expect(up.models['gpt-4o']!.credits_per_request.change).toBeCloseTo(0.2, 6);
    expect(up.verdict).toBe('fail');
    const small = await compareRuns(run({ seed: 1 }), run({ seed: 2, creditsFactor: 1.03 }), options());
    expect(small.models['gpt-4o']!.credits_per_request).toMatchObject({ regression: false, test: { significant: true } });
    expect(small.verdict).toBe('pass');
    expect((await compareRuns(run({ seed: 1 }), run({ seed: 2, creditsFactor: 1.2 }), options({ failOn: ['regressions'] }))).verdict).toBe('pass');
  });

  it('fails on regressions by default, and only on what --fail-on names', async () => {
    const base = run({ seed: 1 });
    const head = run({ seed: 2, failing: ['c3', 'c7'] });
    const c = await compareRuns(base, head, options());
    expect(c.counts.regressions).toBe(4);
    expect(c.regressions.map((r) => r.item_id)).toContain('case:c3|model:gpt-4o');
    expect(c.reasons[0]).toBe('4 regressions (pass → fail)');
    expect((await compareRuns(base, head, options({ failOn: [] }))).verdict).toBe('pass');
    expect(c.models['gpt-4o']!.pass_rate.change).toBeCloseTo(-2 / 30, 9);
  });

  it('fails on changed answers and missing items only when asked', async () => {
    const base = run({ seed: 1 }, [sample({ caseId: 'extra', text: 'old words' })]);
    const head = run({ seed: 2 }, [sample({ caseId: 'extra', text: 'new words' }), sample({ caseId: 'more' })]);
    expect((await compareRuns(base, head, options())).verdict).toBe('pass');
    const changed = await compareRuns(base, head, options({ failOn: ['changed'] }));
    expect(changed.verdict).toBe('fail');
    expect(changed.changed.map((c) => c.item_id)).toEqual(['case:extra|model:gpt-4o']);
    const missing = await compareRuns(head, base, options({ failOn: ['missing'] }));
    expect(missing.missing.map((m) => m.item_id)).toEqual(['case:more|model:gpt-4o']);
    expect(missing.verdict).toBe('fail');
  });

  it('warns about a model on one side only and about too few answers', async () => {
    const base = writeRun(join(root, 'few-a'), [sample({ model: 'a' }), sample({ model: 'b' })]);
    const head = writeRun(join(root, 'few-b'), [sample({ model: 'a' }), sample({ model: 'c' })], { status: 'interrupted' });
    const c = await compareRuns(base, head, options());
    expect(c.models.b!.matched).toBe(false);
    expect(c.models.a!.latency_ms.test.p_value).toBeNull();
    expect(c.warnings.join('\n')).toMatch(/head run did not complete/);
    expect(c.warnings.join('\n')).toMatch(/b ran in only one of the runs/);
    expect(c.warnings.join('\n')).toMatch(/a: too few answers/);
    expect(c.verdict).toBe('pass');
  });

  it('gives the pass rate and credits per request summary.json gives for the same run (judges and unknown credits too)', async () => {
    const judged = (credits: number | null, repeat: number): Sample => ({ ...sample({ credits, repeat }), checks: [{ type: 'judge', pass: true, detail: 'PASS', credits_used: 0.002 }] });
    const samples = [judged(0.01, 1), judged(null, 2), { ...sample({ caseId: 'x', pass: false, outcome: 'timeout', credits: null }) }, sample({ caseId: 'y', credits: 0.03 })];
    const dir = writeRun(join(root, 'same-numbers'), samples);
    const summarizer = createSummarizer();
    samples.forEach((s) => summarizer.add(s));
    const summary = summarizer.finish({ run_id: 'r', status: 'completed' }).summary.models['gpt-4o']!;
    const c = await compareRuns(dir, dir, options());
    expect(c.models['gpt-4o']!.credits_per_request.base).toBe(summary.credits_per_request);
    expect(c.models['gpt-4o']!.pass_rate.base).toBe(summary.pass_rate);
  });

  it("gives the p50/p95/p99 summary.json gives for the same run and model (one percentile method: HDR's)", async () => {
    // Sub-ms odd timings of 1–40 s, two repeats of each case and a timeout (left out on both
    // sides): HDR's bucket top differs from the exact nearest rank here, so the old exact
    // percentiles of compare would not match summary.json.
    const samples: Sample[] = [];
    for (let i = 0; i < 40; i++) {
      for (const repeat of [1, 2]) {
        for (const model of MODELS) {
          const latencyMs = 1000 + 997.123 * i + 31.7 * repeat + (model === 'gpt-4o' ? 0 : 5003.9);
          samples.push(sample({ caseId: `c${i}`, model, repeat, latencyMs, ttfcMs: latencyMs / 3 }));
        }
      }
    }
    samples.push(sample({ caseId: 'c0', model: 'gpt-4o', repeat: 3, outcome: 'timeout', latencyMs: 90_000 }));
    const dir = writeRun(join(root, 'same-percentiles'), samples);
    const summarizer = createSummarizer();
    samples.forEach((s) => summarizer.add(s));
    const models = summarizer.finish({ run_id: 'r', status: 'completed' }).summary.models;
    const c = await compareRuns(dir, dir, options());
    for (const model of MODELS) {
      for (const metric of ['latency_ms', 'ttfc_ms'] as const) {
        const fromSummary = models[model]![metric]!;
        const fromCompare = c.models[model]![metric];
        for (const side of [fromCompare.base, fromCompare.head]) {
          expect(side, `${model} ${metric}`).toEqual({ n: fromSummary.count, p50: fromSummary.p50, p95: fromSummary.p95, p99: fromSummary.p99 });
        }
      }
    }
    // The fixture is one where the two methods part: an exact nearest rank is not summary's p95.
    const answered = samples.filter((s) => s.model === 'gpt-4o' && s.outcome === 'ok').map((s) => s.latency_ms!).sort((a, b) => a - b);
    expect(answered[Math.ceil(0.95 * answered.length) - 1]).not.toBe(models['gpt-4o']!.latency_ms!.p95);
  });

  it('refuses a directory that is not a run, naming it and what is missing', async () => {
    const good = run({ seed: 1 });
    const noResults = join(root, 'no-results');
    mkdirSync(noResults);
    writeFileSync(join(noResults, 'run.json'), '{}');
    await expect(compareRuns(good, noResults, options())).rejects.toThrow(InputError);
    await expect(compareRuns(good, noResults, options())).rejects.toThrow(/no-results has no results\.ndjson/);
    await expect(compareRuns(join(root, 'nope'), good, options())).rejects.toThrow(/nope does not exist/);
  });
});
