// The rules written once for every kind: a field given to a kind that does not read it, and which
// input field a spec's key came from (so a schema issue names the flag or the suite key).
import type { FieldNames, LoadField } from './input.js';

/** Why a field is out of place when the chosen kind does not read it. */
export const REFUSALS: Record<LoadField, (n: FieldNames) => string> = {
  concurrency: (n) => `${n.concurrency} is a closed loop's`,
  rate: (n) => `${n.rate} is an open loop's arrival rate`,
  durationMs: (n) => `${n.durationMs} goes with ${n.rate} (an open-loop run); a closed-loop run ends when its plan is done`,
  stages: (n) => `${n.stages} is an open loop's ramping arrival rate`,
  startRate: (n) => `${n.startRate} is where ${n.stages} ramps from; it needs ${n.stages}`,
  sweep: (n) => `${n.sweep} chooses its own rates`,
  slo: (n) => `${n.slo} is judged per rate of a sweep: add --sweep N --duration D (a whole run is judged by --threshold)`,
  concurrencyStages: (n) => `${n.concurrencyStages} ramps a closed loop's workers`,
  arrival: (n) => `${n.arrival} shapes an open-loop schedule: add ${n.rate} and ${n.durationMs}, or ${n.stages}`,
  mix: (n) => `${n.mix} shapes the starts of a time-bound run: add ${n.rate} and ${n.durationMs}, ${n.stages}, or ${n.concurrencyStages}`,
  maxInFlight: (n) => `${n.maxInFlight} bounds an open loop's outstanding starts`,
  warmupMs: (n) => `${n.warmupMs} does not apply to this load`,
  shard: (n) => `${n.shard} does not apply to this load`,
  resume: (n) => `${n.resume} does not apply to this load`,
  traffic: (n) => `${n.traffic} replays a traffic log: it is a load of its own`,
  timeScale: (n) => `${n.timeScale} speeds up a replayed log: it needs ${n.traffic}`,
  trafficRate: (n) => `${n.trafficRate} scales a replayed log to a mean rate: it needs ${n.traffic}`,
  loop: (n) => `${n.loop} repeats a replayed log: it needs ${n.traffic}`,
  trafficWindowMs: (n) => `${n.trafficWindowMs} is a replayed log's stage length: it needs ${n.traffic}`,
};

/** A spec's key (the deepest named one in a schema issue's path) as the input field that set it. */
export const PATH_FIELDS: Partial<Record<string, LoadField>> = {
  concurrency: 'concurrency', ratePerS: 'rate', durationMs: 'durationMs', stages: 'stages', startRatePerS: 'startRate',
  arrival: 'arrival', mix: 'mix', maxInFlight: 'maxInFlight', warmupMs: 'warmupMs', slo: 'slo',
  timeScale: 'timeScale', trafficRate: 'trafficRate', windowMs: 'trafficWindowMs',
};
