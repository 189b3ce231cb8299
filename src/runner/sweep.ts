// The sweep (GuideLLM's sweep profile): a closed-loop probe one at a time, a closed-loop probe at
// high concurrency, then N constant arrival rates evenly between the two rates they achieved, run
// as one open loop of N step stages. One run: one event stream, one t0, one ledger.
import { performance } from 'node:perf_hooks';
import type { ScheduledStart } from './arrivals.js';
import { arrivalSchedule, profileDurationMs, type ArrivalKind, type LoadProfile } from './arrivals.js';
import { monotonicMs, sleep } from './clock.js';
import type { StartGate } from './gate.js';
import type { MixOptions } from './mix.js';
import { runOpenLoop } from './open-loop.js';
import { runRampingWorkers } from './ramping-workers.js';
import type { SendDeps } from './send.js';
import type { EventSink, RunEvent, SweepProbe, UnitSource } from './unit.js';

export interface SweepOptions {
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

/**
 * One closed-loop probe: `workers` workers cycling through the plan for `probeMs`; its rate is the
 * units that settled per second of the probe (until the last in flight finished).
 */
function probe(source: UnitSource, workers: number, probeMs: number, deps: SendDeps, gate: StartGate, out: EventSink, mix?: MixOptions): Promise<SweepProbe | null> {
  return new Promise((resolve, reject) => {
    const startMs = monotonicMs();
    let settled = 0;
    const sink: EventSink = {
      push(event: RunEvent) {
        if (event.type === 'settled') settled += 1;
        out.push(event);
      },
      close(error?: unknown) {
        if (error !== undefined) return reject(error);
        const endMs = monotonicMs();
        const spanS = Math.max(endMs - startMs, 1) / 1000;
        resolve({ concurrency: workers, start_ms: round(startMs - deps.runStartMs), end_ms: round(endMs - deps.runStartMs), starts: settled, rate_per_s: round(settled / spanS) });
      },
    };
    runRampingWorkers(source, { kind: 'constant', ratePerS: workers, durationMs: probeMs }, deps, gate, sink, mix);
  });
}

/** Waits for the next wall-clock second, so the rates' stages start where a timeline line does. */
async function alignToSecond(stop: AbortSignal): Promise<void> {
  const wallMs = performance.timeOrigin + monotonicMs();
  await sleep(1000 - (wallMs % 1000), stop);
}

export function runSweep(source: UnitSource, options: SweepOptions, deps: SendDeps, gate: StartGate, channel: EventSink, stop: AbortSignal, mix?: MixOptions): void {
  const run = async (): Promise<void> => {
    const sequential = await probe(source, 1, options.probeMs, deps, gate, channel, mix);
    if (gate.stopped || !sequential) return channel.close();
    const saturation = await probe(source, options.saturationConcurrency, options.probeMs, deps, gate, channel, mix);
    if (gate.stopped || !saturation) return channel.close();
    await alignToSecond(stop);
    if (gate.stopped) return channel.close();
    const rates = sweepRates(sequential.rate_per_s, saturation.rate_per_s, options.rates);
    const profile = sweepProfile(rates, options.rateMs);
    const startMs = monotonicMs();
    // Retries of the rates' requests end with the last rate, as an open loop's do.
    deps.backoff.deadlineMs = startMs + profileDurationMs(profile);
    channel.push({ type: 'sweep', probes: { sequential, saturation }, start_ms: round(startMs - deps.runStartMs), rate_ms: options.rateMs, rates });
    if (rates.every((r) => r <= 0)) return channel.close();
    const schedule: Iterator<ScheduledStart> = arrivalSchedule(profile, { arrival: options.arrival, ...(options.seed !== undefined ? { seed: options.seed } : {}) });
    runOpenLoop(source, { schedule, durationMs: profileDurationMs(profile), maxInFlight: options.maxInFlight, ...(mix ? { mix } : {}) }, deps, gate, channel, stop);
  };
  run().catch((error: unknown) => channel.close(error));
}
