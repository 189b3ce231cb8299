// How small a difference a suite can detect, and how many more questions or repeats a given one needs (Miller 2024, §5).
import { normalQuantile } from './wilson.js';

/**
 * The minimum detectable difference of a two-sided test at `alpha` with the given power, from the
 * standard error of the mean paired difference: (z_{1−α/2} + z_power) · SE. SE shrinks as 1/√n,
 * which is what the projections below rest on (the suite's mix of questions and threads kept).
 */
export function detectableDifference(se: number, alpha = 0.05, power = 0.8): number {
  return (normalQuantile(1 - alpha / 2) + normalQuantile(power)) * se;
}

/** Questions (of the same kind) needed to detect `target`, from the current count and detectable difference. */
export function questionsNeeded(questions: number, detectable: number, target: number): number {
  if (!(target > 0)) throw new RangeError(`target difference must be > 0, got ${target}`);
  return Math.max(questions, Math.ceil(questions * (detectable / target) ** 2));
}

export interface VarianceSplit {
  /** Variance of one question's paired difference (its repeats averaged), as observed. */
  total: number;
  /** The part of it that comes from the repeats (sampling noise within a question), at `repeats`. */
  within: number;
  repeats: number;
}

/**
 * Repeats needed per question to detect `target` with the same questions, or null when no number
 * of repeats can: repeats average out only the within-question noise, never the real spread of
 * differences between questions (Miller 2024, "resampling"). Needs ≥ 2 repeats to tell them apart.
 */
export function repeatsNeeded(split: VarianceSplit, detectable: number, target: number): number | null {
  if (split.repeats < 2 || !(split.total > 0) || !(target > 0)) return null;
  if (detectable <= target) return split.repeats;
  const between = Math.max(0, split.total - split.within);
  const allowed = split.total * (target / detectable) ** 2;
  const room = allowed - between;
  if (room <= 0) return null;
  return Math.max(split.repeats, Math.ceil((split.within * split.repeats) / room));
}
