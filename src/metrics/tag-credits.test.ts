// Credits per tag are per model: one tag answered by a cheap and a dear model gives two figures, not their blend.
import { describe, expect, it } from 'vitest';
import { syntheticSamples } from '../report/test-support/synthetic-run.js';
import { createTagCredits } from './tag-credits.js';

describe('tag credits per model', () => {
  it('keeps each model apart, and bounds the tags', () => {
    const t = createTagCredits(1);
    const base = syntheticSamples({ repeats: 1 })[0]!;
    t.add({ ...base, model: 'cheap', tags: ['billing', 'ignored'], credits_used: 0.001, pass: true });
    t.add({ ...base, model: 'dear', tags: ['billing'], credits_used: 0.01, pass: false });
    t.add({ ...base, model: 'dear', tags: ['billing'], credits_used: 0.03, pass: true });
    const r = t.result(['cheap', 'dear'])!;
    expect(Object.keys(r)).toEqual(['billing']);
    expect(r['billing']!['cheap']).toMatchObject({ requests: 1, credits_per_request: 0.001, credits_per_passed: 0.001 });
    expect(r['billing']!['dear']).toMatchObject({ requests: 2, passed: 1, credits_per_request: 0.02, credits_per_passed: 0.04 });
  });
});
