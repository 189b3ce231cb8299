// The replay's spec (run.json's `load.spec` of a traffic run): one type, read by the kind and by its resume checks.
import type { LogShape } from './log-shape.js';

/** A replay: the log and its shape (read once before the run), how fast, for how long, how often. */
export interface TrafficLoad {
  kind: 'traffic';
  file: string;
  shape: LogShape;
  /** 2 = twice as fast; from --time-scale, or the scale --traffic-rate asked for. */
  timeScale: number;
  /** --traffic-rate: the mean rate asked for (timeScale is derived from it). */
  trafficRate?: number;
  durationMs?: number;
  loop: boolean;
  maxInFlight: number;
  mix?: 'sequential' | 'shuffle' | 'weighted';
  warmupMs?: number;
}
