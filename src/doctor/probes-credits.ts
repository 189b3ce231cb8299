// Probes of the credits every answer reported, in the order they were asked (no new request).
import { conforms, differs, notTested, round5, type AnswerSeen } from './context.js';
import type { Probe } from './probe.js';
import type { ProbeName } from './types.js';

/** 1e-5 units: credits are reported to 5 decimals (public-facts.md). */
const units = (credits: number): number => Math.round(credits * 1e5);
const hasAtMostFiveDecimals = (credits: number): boolean => Math.abs(credits * 1e5 - units(credits)) < 1e-6;

/**
 * Each answer whose credits_remaining is known against the last known one: it must have fallen by
 * exactly the credits_used of every answer between (a stream's usage chunk may carry no remaining).
 */
export function remainingGaps(answers: readonly AnswerSeen[]): { checked: number; gaps: string[] } {
  let last: number | null = null;
  let usedSince = 0;
  let checked = 0;
  const gaps: string[] = [];
  for (const answer of answers) {
    if (answer.creditsUsed === null) {
      // Not known what it took: the chain starts again at the next known remaining.
      last = null;
      continue;
    }
    usedSince += units(answer.creditsUsed);
    if (answer.creditsRemaining === null) continue;
    const remaining = units(answer.creditsRemaining);
    if (last !== null) {
      checked++;
      if (last - usedSince !== remaining) gaps.push(`${answer.probe}: ${round5(last / 1e5)} − ${round5(usedSince / 1e5)} ≠ ${answer.creditsRemaining}`);
    }
    last = remaining;
    usedSince = 0;
  }
  return { checked, gaps };
}

export const CREDIT_PROBES = {
  'credits.decimals': {
    documented: 'credits_used and credits_remaining are fractional numbers, to 5 decimals (public-facts.md)',
    run: async (ctx) => {
      const values = ctx.answers.flatMap((a) => [a.creditsUsed, a.creditsRemaining]).filter((v): v is number => v !== null);
      if (values.length === 0) return notTested('no answer reported credits');
      const odd = values.filter((v) => !Number.isFinite(v) || v < 0 || !hasAtMostFiveDecimals(v));
      if (odd.length) return differs(`not a non-negative number to 5 decimals: ${odd.slice(0, 3).join(', ')}`);
      return conforms(`${values.length} values, e.g. ${values.slice(0, 2).join(', ')}`);
    },
  },
  'credits.remaining': {
    documented: 'credits_remaining falls by exactly credits_used, answer after answer (public-facts.md)',
    run: async (ctx) => {
      const { checked, gaps } = remainingGaps(ctx.answers);
      if (checked === 0) return notTested('fewer than two answers reported credits_remaining in a row');
      if (gaps.length) return differs(`${gaps.length} of ${checked} steps do not add up: ${gaps.slice(0, 2).join('; ')}`);
      return conforms(`${checked} steps add up to 5 decimals`);
    },
  },
  'credits.per_model': {
    documented: 'every answer reports the credits it used, whatever its model (interface.md §2)',
    run: async (ctx) => {
      const byModel = new Map<string, number[]>();
      for (const a of ctx.answers.filter((seen) => !seen.failed)) byModel.set(a.model, [...(byModel.get(a.model) ?? []), ...(a.creditsUsed === null ? [] : [a.creditsUsed])]);
      const words = [...byModel].map(([model, used]) => (used.length ? `${model} ${round5(Math.max(...used))} at most` : `${model} none known`));
      if (byModel.size === 0) return notTested('no answer came back');
      const unknown = [...byModel].filter(([, used]) => used.length === 0).map(([model]) => model);
      // A model whose answers reported no credits is another row's finding (stream.usage): not said twice.
      if (unknown.length) return notTested(`no credits known for ${unknown.join(', ')} (see stream.usage); ${words.join(', ')}`);
      return conforms(words.join(', '));
    },
  },
} as const satisfies Partial<Record<ProbeName, Probe>>;
