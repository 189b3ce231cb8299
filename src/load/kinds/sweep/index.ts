// GuideLLM's sweep (--sweep N): a closed-loop probe one at a time and one at saturation, then N
// constant rates between them, each for --duration; --slo judged per rate.
import { z } from 'zod';
import { parseThresholdFlag } from '../../../metrics/threshold-parser.js';
import { InputError } from '../../../domain/errors.js';
import type { SweepLoad } from '../../../domain/load.js';
import { defaultMaxInFlight, LoadFieldError, type FieldNames } from '../../input.js';
import type { LoadKind } from '../../kind.js';
import { arrivalSchema, commonShape, positive, seconds, whole } from '../../schemas.js';
import { inFlightCapWords } from '../arrivals/index.js';
import { sweepLoop } from './executor.js';
import { sweepProbed } from './rates.js';
import { MAX_SWEEP_RATES, SWEEP_PROBE_MAX_MS, SWEEP_SATURATION_WORKERS } from './limits.js';

export { MAX_SWEEP_RATES, SWEEP_PROBE_MAX_MS, SWEEP_SATURATION_WORKERS } from './limits.js';

/** `--slo` flags as threshold definitions (the threshold grammar; no abort options: an SLO judges, it never stops). */
export function parseSlos(flags: readonly string[], n: FieldNames): Record<string, string[]> {
  const slos: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const flag of flags) {
    if (flag.includes(';')) throw new LoadFieldError('slo', `${n.slo} "${flag}": an SLO judges each rate and never stops the run; abortOnFail belongs to --threshold`, n);
    let parsed: { key: string; expression: string };
    try {
      parsed = parseThresholdFlag(flag);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      const message = error.message.includes('--threshold') ? error.message.replace('--threshold', n.slo) : `${n.slo} "${flag}": ${error.message}`;
      throw new LoadFieldError('slo', message, n);
    }
    (slos[parsed.key] ??= []).push(parsed.expression);
  }
  return { ...slos };
}

export const sweepKind: LoadKind<SweepLoad> = {
  kind: 'sweep',
  summary: 'sweep: probes one at a time and at saturation, then N constant rates between them, each for --duration',
  triggers: ['sweep'],
  accepts: ['concurrency', 'sweep', 'durationMs', 'slo', 'arrival', 'mix', 'maxInFlight'],
  refuse: {
    warmupMs: (n) => `${n.sweep} warms up with its probes (recorded as warmup); leave out ${n.warmupMs}`,
    shard: (n) => `${n.sweep} runs in one process: its rates come from its own probes; leave out ${n.shard}`,
    startRate: (n) => `${n.sweep} chooses its own rates (between its two probes); leave out ${n.startRate}`,
  },
  clash: (other, n) => `${n.sweep} chooses its own rates (between its two probes); leave out ${other}`,
  schema: z.object({
    kind: z.literal('sweep'), rates: whole.max(MAX_SWEEP_RATES, `at most ${MAX_SWEEP_RATES} rates`), rateMs: positive, probeMs: positive,
    saturationWorkers: whole, arrival: arrivalSchema, maxInFlight: whole, slo: z.record(z.string(), z.array(z.string())), ...commonShape,
  }),
  paths: { rates: 'sweep', rateMs: 'durationMs', probeMs: 'durationMs', saturationWorkers: 'maxInFlight' },
  build(input, n) {
    const rates = input.sweep!;
    if (rates > MAX_SWEEP_RATES) throw new LoadFieldError('sweep', `${n.sweep} ${rates}: at most ${MAX_SWEEP_RATES} rates`, n);
    if (input.durationMs === undefined) throw new LoadFieldError('sweep', `${n.sweep} needs ${n.durationMs}: how long each rate (and each probe, at most ${SWEEP_PROBE_MAX_MS / 1000}s) runs, e.g. ${n.durationMs} 30s`, n);
    return {
      kind: 'sweep', rates, rateMs: input.durationMs, probeMs: Math.min(input.durationMs, SWEEP_PROBE_MAX_MS),
      saturationWorkers: input.maxInFlight ?? SWEEP_SATURATION_WORKERS, arrival: input.arrival ?? 'constant', maxInFlight: defaultMaxInFlight(input),
      slo: parseSlos(input.slo ?? [], n), ...(input.mix !== undefined && input.mix !== 'sequential' ? { mix: input.mix } : {}),
    };
  },
  noResume: 'a sweep cannot be resumed (its rates come from probes of that moment): start a new run',
  volumeUnknown: "a sweep's volume depends on the rates its probes find",
  loop: (spec, run) => sweepLoop({
    rates: spec.rates, rateMs: spec.rateMs, probeMs: spec.probeMs, saturationConcurrency: spec.saturationWorkers, maxInFlight: spec.maxInFlight, arrival: spec.arrival,
    ...(run.seed !== undefined ? { seed: run.seed } : {}),
  }),
  timeBound: true,
  probed: sweepProbed,
  oneWorker: "a sweep's probes and rates are one schedule",
  describe: (spec, run) => `sweep: two probes, then ${spec.rates} rates of ${seconds(spec.rateMs)} each, ${inFlightCapWords(spec.maxInFlight, run.concurrency)}`,
  maxInFlight: (spec) => spec.maxInFlight,
};
