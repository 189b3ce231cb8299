// What the open loop meant to do over time (its stages and target rate), for the timeline and the
// per-stage summary: the load profile's stages (runner/arrivals.ts), a shard's share of them.
import type { StageWindow } from '../metrics/stage-window.js';
import { targetRateAt } from '../runner/arrivals.js';
import { scheduleOf } from '../load/index.js';
import { loadProfileOf } from './load-profile.js';
import { specOf } from '../config/load-section.js';
import type { RunConfig } from '../config/run-config.js';

export interface LoadShape {
  stages: StageWindow[];
  /** Intended starts per second at ms since the run's start. */
  targetRateAt(tMs: number): number;
}

/**
 * The load shape of a session's options; null for a closed loop. A shard of N runs 1/N of every
 * stage's rate (its execution segment), and `kbbench merge` adds the shards' rates back up.
 */
export function loadShapeOf(options: Pick<RunConfig, 'load' | 'placement'>): LoadShape | null {
  const profile = loadProfileOf(options);
  const schedule = scheduleOf(specOf(options), options.placement.shard?.count ?? 1);
  if (profile === null || schedule === null) return null;
  const share = options.placement.shard ? 1 / options.placement.shard.count : 1;
  return { stages: schedule.stages, targetRateAt: (tMs) => targetRateAt(profile, tMs) * share };
}
