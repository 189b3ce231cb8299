// Credits per suite tag and model: the tag table's spend, never mixing models (a tag's cost depends on who answered).
import type { Sample } from '../domain/sample.js';
import type { TagModelCredits } from '../domain/summary.js';
import { fromUnits, sampleCreditUnits } from '../credits/units.js';
import { setOwn } from './own-record.js';

interface Cell {
  requests: number;
  passed: number;
  units: number;
}

/** Bounded like the tag statistics: at most `maxTags` tags (the summarizer's MAX_TAGS) × the run's models. */
export function createTagCredits(maxTags: number): { add(sample: Sample): void; result(modelOrder: readonly string[]): Record<string, Record<string, TagModelCredits>> | null } {
  const tags = new Map<string, Map<string, Cell>>();
  return {
    add(sample) {
      if (!Array.isArray(sample.tags) || sample.outcome === 'skipped') return;
      for (const tag of sample.tags) {
        if (typeof tag !== 'string') continue;
        let models = tags.get(tag);
        if (!models) {
          if (tags.size >= maxTags) continue;
          models = new Map();
          tags.set(tag, models);
        }
        const cell = models.get(sample.model) ?? { requests: 0, passed: 0, units: 0 };
        models.set(sample.model, cell);
        cell.requests++;
        if (sample.pass) cell.passed++;
        cell.units += sampleCreditUnits(sample);
      }
    },
    result(modelOrder) {
      if (tags.size === 0) return null;
      const out = Object.create(null) as Record<string, Record<string, TagModelCredits>>;
      for (const tag of [...tags.keys()].sort()) {
        const models = tags.get(tag)!;
        const row = Object.create(null) as Record<string, TagModelCredits>;
        for (const model of modelOrder) {
          const c = models.get(model);
          if (!c) continue;
          const credits = fromUnits(c.units);
          setOwn(row, model, {
            requests: c.requests, passed: c.passed, credits_used: credits,
            credits_per_request: c.requests > 0 ? Number((credits / c.requests).toFixed(6)) : null,
            credits_per_passed: c.passed > 0 ? Number((credits / c.passed).toFixed(6)) : null,
          });
        }
        setOwn(out, tag, row);
      }
      return out;
    },
  };
}
