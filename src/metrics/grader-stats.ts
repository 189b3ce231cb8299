// Who graded the model-graded checks, how many each, and what they spent, apart from the answers.
import { fromUnits, toUnits } from '../credits/units.js';
import type { Sample } from '../domain/sample.js';
import type { GraderSummary } from '../domain/summary.js';

interface Tally {
  checks: number;
  notJudged: number;
  units: number;
  tokens: number;
  cached: number;
}

/** More distinct graders than this are folded into the last (a run has one or two). */
const MAX_GRADERS = 20;

export function createGraderStats(): { add(sample: Sample): void; result(): GraderSummary | undefined } {
  const byGrader = new Map<string, Tally>();
  return {
    add(sample) {
      if (sample.warmup === true) return;
      for (const check of sample.checks) {
        if (check.grader === undefined && check.grader_replies === undefined) continue;
        const name = check.grader ?? 'unknown grader';
        let tally = byGrader.get(name);
        if (tally === undefined) {
          if (byGrader.size >= MAX_GRADERS) continue;
          tally = { checks: 0, notJudged: 0, units: 0, tokens: 0, cached: 0 };
          byGrader.set(name, tally);
        }
        tally.checks++;
        if (check.pass === null) tally.notJudged++;
        tally.units += toUnits(check.credits_used ?? 0);
        tally.tokens += check.grader_tokens ?? 0;
        if (check.cached === true) tally.cached++;
      }
    },
    result() {
      if (byGrader.size === 0) return undefined;
      const graders = [...byGrader].map(([grader, t]) => ({ grader, checks: t.checks, not_judged: t.notJudged, credits_used: fromUnits(t.units), tokens: t.tokens, ...(t.cached > 0 ? { cached: t.cached } : {}) }));
      const units = [...byGrader.values()].reduce((sum, t) => sum + t.units, 0);
      const cached = graders.reduce((sum, g) => sum + (g.cached ?? 0), 0);
      return { graders, credits_used: fromUnits(units), tokens: graders.reduce((sum, g) => sum + g.tokens, 0), ...(cached > 0 ? { cached } : {}) };
    },
  };
}
