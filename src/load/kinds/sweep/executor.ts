// The sweep (GuideLLM's sweep profile): a closed-loop probe one at a time, a closed-loop probe at
// high concurrency, then N constant arrival rates evenly between the two rates they achieved, run
// as one open loop of N step stages. One run: one event stream, one t0, one ledger, one plan walker.
import { performance } from 'node:perf_hooks';
import type { SweepProbe } from '../../../domain/load.js';
import { arrivalSchedule, profileDurationMs, type ArrivalKind, type LoadProfile } from '../../../runner/arrivals.js';
import type { Executor, Loop, LoopControl, LoopState, NextStart } from '../../../runner/loop/executor.js';
import { arrivalsExecutor } from '../arrivals/executor.js';
import { rampingWorkersExecutor } from '../ramping-workers/executor.js';

export interface SweepSpec {
  /** How many constant rates between the probes. */
  rates: number;
  /** How long each rate runs. */
  rateMs: number;
  /** How long each probe starts units (those in flight then finish). */
  probeMs: number;
  /** The saturation probe's workers. */
  saturationConcurrency: number;
  /** The open loop's bound on outstanding starts. */
  maxInFlight: number;
  arrival: ArrivalKind;
  seed?: number;
}

const round = (x: number, places = 3): number => Math.round(x * 10 ** places) / 10 ** places;

/** The N constant rates a sweep runs: evenly between the one-at-a-time and the saturation rate, both excluded. */
export function sweepRates(oneAtATimeRate: number, saturationRate: number, n: number): number[] {
  const low = Math.min(oneAtATimeRate, saturationRate);
  const high = Math.max(oneAtATimeRate, saturationRate);
  return Array.from({ length: n }, (_, i) => round(low + ((high - low) * (i + 1)) / (n + 1)));
}

/** The open loop of a sweep: one step stage per rate (each holds its rate: from = target). */
export function sweepProfile(rates: readonly number[], rateMs: number): LoadProfile {
  return { kind: 'stages', startRatePerS: rates[0] ?? 0, stages: rates.map((r) => ({ durationMs: rateMs, targetPerS: r, fromPerS: r })) };
}

/** ms until the next wall-clock second, so the rates' stages start where a timeline line does. */
const toNextSecondMs = (): number => 1000 - ((performance.timeOrigin + performance.now()) % 1000);

/** A probe: `workers` workers for `probeMs`, then a drain; its rate is the units settled per second until the last one. */
function probePhase(workers: number, probeMs: number, begin: LoopState) {
  const steer = rampingWorkersExecutor({ kind: 'constant', ratePerS: workers, durationMs: probeMs }, begin.elapsedMs);
  return {
    next(state: LoopState): NextStart | SweepProbe {
      const step = steer.next(state);
      if (step.kind !== 'done') return step;
      if (state.inFlight > 0) return { kind: 'wait', untilMs: null };
      const spanS = Math.max(state.elapsedMs - begin.elapsedMs, 1) / 1000;
      const starts = state.settled - begin.settled;
      return { concurrency: workers, start_ms: round(begin.elapsedMs), end_ms: round(state.elapsedMs), starts, rate_per_s: round(starts / spanS) };
    },
  };
}

export function sweepExecutor(spec: SweepSpec, control: LoopControl): Executor {
  let phase: { next(state: LoopState): NextStart | SweepProbe } | null = null;
  const probes: SweepProbe[] = [];
  let alignUntil: number | null = null;
  let rates: Executor | null = null;
  let over = false;

  const beginRates = (state: LoopState): NextStart => {
    const [sequential, saturation] = probes as [SweepProbe, SweepProbe];
    const values = sweepRates(sequential.rate_per_s, saturation.rate_per_s, spec.rates);
    const profile = sweepProfile(values, spec.rateMs);
    const durationMs = profileDurationMs(profile);
    // Retries of the rates' requests end with the last rate, as an open loop's do.
    control.setRetryDeadline(state.elapsedMs + durationMs);
    control.push({ type: 'sweep', probes: { sequential, saturation }, start_ms: round(state.elapsedMs), rate_ms: spec.rateMs, rates: values });
    if (values.every((r) => r <= 0)) {
      over = true;
      return { kind: 'done' };
    }
    const schedule = arrivalSchedule(profile, { arrival: spec.arrival, ...(spec.seed !== undefined ? { seed: spec.seed } : {}) });
    rates = arrivalsExecutor({ schedule, durationMs, maxInFlight: spec.maxInFlight }, state.elapsedMs, state.nextIndex);
    return rates.next(state);
  };

  return {
    cycles: true,
    timeBound: true,
    // The probes are closed loops (never held); the rates are an open loop with its cap.
    maxInFlight: () => (rates ? rates.maxInFlight() : Infinity),
    next(state) {
      if (over) return { kind: 'done' };
      if (rates) return rates.next(state);
      if (probes.length === 2) {
        alignUntil ??= state.elapsedMs + toNextSecondMs();
        return state.elapsedMs >= alignUntil ? beginRates(state) : { kind: 'wait', untilMs: alignUntil };
      }
      phase ??= probePhase(probes.length === 0 ? 1 : spec.saturationConcurrency, spec.probeMs, state);
      const step = phase.next(state);
      if ('kind' in step) return step;
      probes.push(step);
      phase = null;
      return this.next(state);
    },
  };
}

/** The run's loop: one schedule of probes and rates (it does not split over --workers). */
export function sweepLoop(spec: SweepSpec): Loop {
  return { kind: 'sweep', executor: (control) => sweepExecutor(spec, control) };
}
