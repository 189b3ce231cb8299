// The open loop's arrival schedule (k6's constant- and ramping-arrival-rate executors): a load
// profile gives a target rate over time; starts are placed where the integral of that rate crosses
// each whole number (constant arrivals) or each point of a unit-rate Poisson process (poisson
// arrivals), so the count per stage matches the plan however the stages are shaped.
import { createRandom } from '../domain/random.js';

// The stage text is read in domain/ so a suite's `load:` block reads it the same way as --stages.
export { parseStages } from '../domain/stages.js';
import type { StageWindow } from '../domain/load.js';

export type LoadProfile =
  | { kind: 'constant'; ratePerS: number; durationMs: number }
  | { kind: 'stages'; startRatePerS: number; stages: ProfileStage[] };

/**
 * A stage ramps linearly from the previous stage's target (or the start rate) to its own; with
 * `fromPerS` it starts there instead: a step, as a sweep's constant rates are (from = target).
 */
export interface ProfileStage {
  durationMs: number;
  targetPerS: number;
  fromPerS?: number;
}

/** One stage of a profile, in ms since the run's t0 (a constant profile is one stage): run.json's own type. */
export type { StageWindow } from '../domain/load.js';

export type ArrivalKind = 'constant' | 'poisson';
export const ARRIVAL_KINDS: readonly ArrivalKind[] = ['constant', 'poisson'];

/** A start of the whole schedule: its global index (0-based) and its intended offset from t0. */
export interface ScheduledStart {
  index: number;
  atMs: number;
}

export function stageWindows(profile: LoadProfile): StageWindow[] {
  if (profile.kind === 'constant') {
    return [{ index: 0, from_rate: profile.ratePerS, to_rate: profile.ratePerS, start_ms: 0, end_ms: profile.durationMs }];
  }
  let from = profile.startRatePerS;
  let start = 0;
  return profile.stages.map((stage, index) => {
    const window = { index, from_rate: stage.fromPerS ?? from, to_rate: stage.targetPerS, start_ms: start, end_ms: start + stage.durationMs };
    from = stage.targetPerS;
    start = window.end_ms;
    return window;
  });
}

export function profileDurationMs(profile: LoadProfile): number {
  return profile.kind === 'constant' ? profile.durationMs : profile.stages.reduce((sum, s) => sum + s.durationMs, 0);
}

/** The target rate (starts per second) at `tMs` since t0; 0 after the profile ends. */
export function targetRateAt(profile: LoadProfile, tMs: number): number {
  for (const w of stageWindows(profile)) {
    if (tMs >= w.start_ms && tMs < w.end_ms) return w.from_rate + ((w.to_rate - w.from_rate) * (tMs - w.start_ms)) / (w.end_ms - w.start_ms);
  }
  return 0;
}

/** Expected starts within a window: the integral of its linear rate (a trapezoid). */
export function windowStarts(w: StageWindow): number {
  return ((w.from_rate + w.to_rate) / 2) * ((w.end_ms - w.start_ms) / 1000);
}

/**
 * Starts the profile plans: the integral of its rate, rounded down (a constant `--rate 3
 * --duration 1.5s` plans 4, at 0, ⅓, ⅔ and 1 s). Poisson arrivals vary around it.
 */
export function plannedStarts(profile: LoadProfile): number {
  return Math.floor(stageWindows(profile).reduce((sum, w) => sum + windowStarts(w), 0) + 1e-9);
}

/** Where, inside a window, the integral of its rate reaches `starts` (the window's own count). */
function offsetWithin(w: StageWindow, starts: number): number {
  if (starts <= 0) return w.start_ms;
  const durationS = (w.end_ms - w.start_ms) / 1000;
  const a = w.from_rate;
  const slope = (w.to_rate - a) / durationS;
  // Solves a·t + slope·t²/2 = starts; this form stays exact when the slope is 0 or the start rate is.
  const t = (2 * starts) / (a + Math.sqrt(Math.max(0, a * a + 2 * slope * starts)));
  return w.start_ms + Math.min(durationS, t) * 1000;
}

export interface ScheduleOptions {
  arrival: ArrivalKind;
  /** Poisson arrivals only: the seed of their draws. */
  seed?: number;
}

/**
 * The schedule as a lazy sequence (never materialised): constant arrivals at integral 0, 1, 2, …
 * below the planned count; Poisson arrivals at the points of a unit-rate Poisson process on the
 * integral's scale (a time change gives the inhomogeneous process), up to the profile's end.
 */
export function* arrivalSchedule(profile: LoadProfile, options: ScheduleOptions): Generator<ScheduledStart> {
  const windows = stageWindows(profile);
  const total = plannedStarts(profile);
  const random = createRandom(options.seed ?? 1);
  let index = 0;
  let level = 0; // the integral's value the next start sits at
  let before = 0; // the integral at the current window's start
  for (const w of windows) {
    const inWindow = windowStarts(w);
    while (true) {
      if (options.arrival === 'constant' && index >= total) return;
      if (level >= before + inWindow) break;
      yield { index, atMs: offsetWithin(w, level - before) };
      index += 1;
      level = options.arrival === 'constant' ? index : level - Math.log(1 - random());
    }
    before += inWindow;
  }
}
