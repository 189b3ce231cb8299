// Per-model latency, streaming-rate, price and answer-style profiles of the reference service.
import { z } from 'zod';
import type { KnownModel } from '../protocol/index.js';
import { logNormal, type Random } from './random.js';

/** How a model's answers read: the lead sentence family and list style. */
export const ANSWER_STYLES = ['claude', 'gpt', 'mini', 'reasoning', 'grok'] as const;
export type AnswerStyle = (typeof ANSWER_STYLES)[number];

export const ModelProfileSchema = z.object({
  /** Median time to first chunk, before latencyScale. */
  ttfcMedianMs: z.number().nonnegative(),
  /** Sigma of the log-normal time to first chunk (0 = always the median). */
  ttfcSpread: z.number().nonnegative(),
  chunksPerS: z.number().positive(),
  wordsPerChunkMin: z.number().int().positive(),
  wordsPerChunkMax: z.number().int().positive(),
  inputCreditsPer1kChars: z.number().nonnegative(),
  outputCreditsPer1kChars: z.number().nonnegative(),
  minCredits: z.number().nonnegative(),
  /** How many retrieved passages an answer quotes at most. */
  maxPassages: z.number().int().positive(),
  style: z.enum(ANSWER_STYLES),
  /** Answers generated at once (when latencyScale > 0); more wait in a queue. 0 = unlimited. */
  slots: z.number().int().nonnegative(),
  /** Answers that may wait for a slot; beyond it the service is overloaded (429 or 503). */
  queueLimit: z.number().int().nonnegative(),
});
export type ModelProfile = z.infer<typeof ModelProfileSchema>;

/** What a workspace may override (or add, for a model name the service does not know yet). */
export const ModelProfileOverrideSchema = ModelProfileSchema.partial().strict();
export type ModelProfileOverride = z.infer<typeof ModelProfileOverrideSchema>;

/**
 * Capacity: a few slots per model, so a ramp against the demo meets its knee at a handful of answers
 * per second (each holds its slot for a second or two), far below what the harness or these
 * machines can drive; the queue lets latency grow first, then refusals start.
 */
const base = { wordsPerChunkMin: 1, wordsPerChunkMax: 4, minCredits: 0.0001, slots: 4, queueLimit: 8 };

/** Defaults shaped after public impressions of each model family: big models slower and dearer. */
export const DEFAULT_MODEL_PROFILES: Record<KnownModel, ModelProfile> = {
  'claude-sonnet-4-6': { ...base, ttfcMedianMs: 900, ttfcSpread: 0.35, chunksPerS: 40, inputCreditsPer1kChars: 0.01, outputCreditsPer1kChars: 0.05, maxPassages: 4, style: 'claude' },
  'claude-sonnet-4-5': { ...base, ttfcMedianMs: 850, ttfcSpread: 0.35, chunksPerS: 38, inputCreditsPer1kChars: 0.01, outputCreditsPer1kChars: 0.05, maxPassages: 4, style: 'claude' },
  'claude-sonnet-5': { ...base, ttfcMedianMs: 1100, ttfcSpread: 0.4, chunksPerS: 45, inputCreditsPer1kChars: 0.015, outputCreditsPer1kChars: 0.075, maxPassages: 4, style: 'claude' },
  'o3-mini': { ...base, ttfcMedianMs: 1800, ttfcSpread: 0.5, chunksPerS: 70, inputCreditsPer1kChars: 0.003, outputCreditsPer1kChars: 0.012, maxPassages: 3, style: 'reasoning' },
  'gpt-4o': { ...base, ttfcMedianMs: 600, ttfcSpread: 0.3, chunksPerS: 50, inputCreditsPer1kChars: 0.008, outputCreditsPer1kChars: 0.04, maxPassages: 3, style: 'gpt' },
  'grok-2-1212': { ...base, ttfcMedianMs: 700, ttfcSpread: 0.4, chunksPerS: 45, inputCreditsPer1kChars: 0.006, outputCreditsPer1kChars: 0.03, maxPassages: 3, style: 'grok' },
  'gpt-4o-mini': { ...base, ttfcMedianMs: 350, ttfcSpread: 0.3, chunksPerS: 80, inputCreditsPer1kChars: 0.0005, outputCreditsPer1kChars: 0.002, maxPassages: 2, style: 'mini' },
};

/** Defaults merged with a workspace's overrides; an override for a new name starts from the default model. */
export function resolveModelProfiles(
  overrides: Record<string, ModelProfileOverride> = {},
  defaultModel = 'claude-sonnet-4-6',
): Map<string, ModelProfile> {
  const profiles = new Map<string, ModelProfile>(Object.entries(DEFAULT_MODEL_PROFILES));
  const fallback = profiles.get(defaultModel) ?? DEFAULT_MODEL_PROFILES['claude-sonnet-4-6'];
  for (const [model, override] of Object.entries(overrides)) {
    profiles.set(model, { ...(profiles.get(model) ?? fallback), ...override });
  }
  return profiles;
}

/** One credit is 100 000 units: balances and prices are integers so remaining falls by exactly what was used. */
export const CREDIT_UNITS = 100_000;

export function creditsToUnits(credits: number): number {
  return Math.round(credits * CREDIT_UNITS);
}

export function unitsToCredits(units: number): number {
  return Number((units / CREDIT_UNITS).toFixed(5));
}

/** Price of one answer in credit units, from its input size (prompt + context) and output size. */
export function priceUnits(profile: ModelProfile, inputChars: number, outputChars: number): number {
  const credits =
    (inputChars * profile.inputCreditsPer1kChars + outputChars * profile.outputCreditsPer1kChars) / 1000;
  return Math.max(creditsToUnits(profile.minCredits), creditsToUnits(credits));
}

/** Time to first chunk in milliseconds, before latencyScale. */
export function drawTtfcMs(profile: ModelProfile, random: Random): number {
  return logNormal(random, profile.ttfcMedianMs, profile.ttfcSpread);
}

/** Gap between two chunks in milliseconds, jittered ±30% around the model's rate. */
export function drawChunkGapMs(profile: ModelProfile, random: Random): number {
  return (1000 / profile.chunksPerS) * (0.7 + 0.6 * random());
}
