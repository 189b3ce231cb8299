// The pieces the kinds share: zod schemas (a stage, the common fields) and how a header says a duration.
import { z } from 'zod';

export const positive = z.number().positive('must be above 0');
export const whole = z.number().int('must be a whole number').positive('must be 1 or more');

export const stageSchema = z.object({ durationMs: positive, targetPerS: z.number().nonnegative('must be 0 or more') });
export const stagesSchema = z.array(stageSchema).min(1, 'needs at least one stage');

export const arrivalSchema = z.enum(['constant', 'poisson']);

/** What every kind may carry (domain/load.ts, LoadCommon). */
export const commonShape = {
  mix: z.enum(['sequential', 'shuffle', 'weighted']).optional(),
  warmupMs: positive.optional(),
};

/** The common fields of the input, as a spec carries them (the defaults left out). */
export function commonOf(input: { mix?: 'sequential' | 'shuffle' | 'weighted'; warmupMs?: number }): { mix?: 'shuffle' | 'weighted' | 'sequential'; warmupMs?: number } {
  return {
    ...(input.mix !== undefined && input.mix !== 'sequential' ? { mix: input.mix } : {}),
    ...(input.warmupMs !== undefined ? { warmupMs: input.warmupMs } : {}),
  };
}

/** A duration as the console header says it: seconds to one decimal. */
export const seconds = (ms: number): string => `${Math.round(ms / 100) / 10}s`;
