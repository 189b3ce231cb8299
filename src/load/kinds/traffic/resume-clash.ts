// What a `--resume` of a replay refuses before anything is sent: a log changed since the run began
// (its size or modification time, recorded in run.json), and a flag that says another replay than
// the one recorded (a speed, a cut, a loop, a bound): the rest of a run is sent as its start was.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { isGiven, type FieldNames, type LoadField, type LoadInput } from '../../input.js';
import { stampOf } from './log-shape.js';
import type { TrafficLoad } from './spec.js';

/** The recorded value of each replay field a resume may repeat (the same value says nothing new). */
function recordedValue(spec: TrafficLoad, field: LoadField): unknown {
  switch (field) {
    case 'traffic': return spec.file;
    case 'timeScale': return spec.timeScale;
    case 'trafficRate': return spec.trafficRate;
    case 'durationMs': return spec.durationMs;
    case 'loop': return spec.loop;
    case 'maxInFlight': return spec.maxInFlight;
    case 'trafficWindowMs': return spec.shape.windowMs;
    case 'warmupMs': return spec.warmupMs;
    default: return undefined;
  }
}

const REPLAY_FIELDS: readonly LoadField[] = ['traffic', 'timeScale', 'trafficRate', 'durationMs', 'loop', 'maxInFlight', 'trafficWindowMs', 'warmupMs'];

/** Why the log cannot be continued: gone, or changed since the run read it (null: as it was, or an older run that recorded no stamp). */
export function changedLog(spec: TrafficLoad): string | null {
  const was = spec.shape.read;
  if (was === undefined) return null;
  if (!existsSync(spec.file)) return `the run replays ${spec.file}, which is gone: a resume sends the rest of that log`;
  const now = stampOf(spec.file);
  if (now.bytes === was.bytes && now.mtimeMs === was.mtimeMs) return null;
  return `the log ${spec.file} changed since the run began (${was.bytes} → ${now.bytes} bytes, modified ${new Date(now.mtimeMs).toISOString()}): ` +
    'its records may not be the ones recorded. Start a new run, or pass --allow-changed-suite to continue with the changed file';
}

/** A flag given with --resume that contradicts the recorded replay, or another load's field; null when none does. */
export function replayClash(spec: TrafficLoad, input: LoadInput, n: FieldNames): string | null {
  for (const field of Object.keys(n) as LoadField[]) {
    if (field === 'resume' || field === 'shard' || !isGiven(input, field)) continue;
    if (!REPLAY_FIELDS.includes(field)) return `the run is a traffic replay (${spec.file}): ${n[field]} asks for another load; a resume continues the replay as it began, so leave ${n[field]} out`;
    const given = field === 'traffic' ? resolve(input.traffic!.file) : input[field];
    const was = recordedValue(spec, field);
    if (JSON.stringify(given) === JSON.stringify(was)) continue;
    const shown = (value: unknown): string => (field === 'traffic' ? String(value) : JSON.stringify(value ?? null));
    return `${n[field]} ${shown(given)} contradicts the run's replay (recorded in run.json: ${shown(was)}): a resume sends the rest as the run began; leave ${n[field]} out, or start a new run`;
  }
  return null;
}
