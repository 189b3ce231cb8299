// Options of a comparison: defaults and the parsing of --fail-on and the tolerance flags (errors name the flag).
import { InputError } from '../domain/errors.js';
import { DEFAULT_GATES, parseFailOn } from '../metrics/gates.js';
import type { CompareOptions } from './types.js';

export const DEFAULT_COMPARE_OPTIONS: CompareOptions = {
  latencyTolerance: 0.1,
  creditsTolerance: 0.05,
  tolerance: 0,
  alpha: 0.01,
  // The one default of every command (metrics/gates.ts); compare judges its own gates of it.
  failOn: [...DEFAULT_GATES],
};

/**
 * `10%` or `0.1`. A bare number above 1 is refused rather than guessed: `--latency-tolerance 10`
 * could mean 10% or 1000%, and a silent wrong guess would turn a gate off.
 */
export function parseTolerance(value: string | number | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  const percent = text.endsWith('%');
  const n = percent ? Number(text.slice(0, -1)) / 100 : Number(text);
  if (text === '' || text === '%' || !Number.isFinite(n) || n < 0) {
    throw new InputError(`expected a percentage like 10% or a fraction like 0.1, got "${value}"`, { field: `--${flag}` });
  }
  if (!percent && n > 1) {
    throw new InputError(`"${value}" is ambiguous: write ${text}% for a percentage, or a fraction like ${(n / 100).toString()}`, { field: `--${flag}` });
  }
  return n;
}

export { parseFailOn };

export function parseAlpha(value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || value <= 0 || value >= 0.5) {
    throw new InputError(`expected a significance level between 0 and 0.5 (e.g. 0.01), got ${value}`, { field: '--alpha' });
  }
  return value;
}

export interface CompareFlagValues {
  latencyTolerance?: string | number;
  creditsTolerance?: string | number;
  failOn?: string | string[];
  alpha?: number;
  tolerance?: string | number;
  allowDifferentSuites?: boolean;
}

/** Flags to options, defaults filled in; throws InputError (exit 2) before anything runs. */
export function compareOptionsFrom(flags: CompareFlagValues): CompareOptions {
  return {
    latencyTolerance: parseTolerance(flags.latencyTolerance, 'latency-tolerance') ?? DEFAULT_COMPARE_OPTIONS.latencyTolerance,
    creditsTolerance: parseTolerance(flags.creditsTolerance, 'credits-tolerance') ?? DEFAULT_COMPARE_OPTIONS.creditsTolerance,
    alpha: parseAlpha(flags.alpha) ?? DEFAULT_COMPARE_OPTIONS.alpha,
    tolerance: parseTolerance(flags.tolerance, 'tolerance') ?? DEFAULT_COMPARE_OPTIONS.tolerance,
    failOn: parseFailOn(flags.failOn) ?? [...DEFAULT_COMPARE_OPTIONS.failOn],
    ...(flags.allowDifferentSuites === true ? { allowDifferentSuites: true } : {}),
  };
}
