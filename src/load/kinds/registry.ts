// Every load shape the runner knows, by kind: adding an arrival shape is a file in this folder and
// a line here (its spec type in LoopSpec, its factory in EXECUTORS). The kinds are the LoadSpec's
// (domain/load.ts, built by src/load/): EXECUTORS must have one for each, or this does not compile.
import type { LoadKind } from '../../domain/load.js';
import { arrivalsExecutor, type ArrivalsSpec } from './arrivals.js';
import { closedExecutor, type ClosedSpec } from './closed.js';
import type { Executor, LoopControl } from './executor.js';
import { rampingWorkersExecutor, type RampingWorkersSpec } from './ramping-workers.js';
import { sweepExecutor, type SweepSpec } from './sweep.js';

export type LoopSpec = ClosedSpec | RampingWorkersSpec | ArrivalsSpec | SweepSpec;
export type LoopKind = LoopSpec['kind'];

type Factory<K extends LoopKind> = (spec: Extract<LoopSpec, { kind: K }>, control: LoopControl) => Executor;

export const EXECUTORS: { [K in LoopKind]: Factory<K> } = {
  closed: (spec) => closedExecutor(spec),
  'ramping-workers': (spec) => rampingWorkersExecutor(spec),
  arrivals: (spec) => arrivalsExecutor(spec),
  sweep: (spec, control) => sweepExecutor(spec, control),
};

/** Compiles only while every LoadSpec kind has an executor spec here (and no other). */
export const EVERY_LOAD_KIND_HAS_AN_EXECUTOR: [Exclude<LoadKind, LoopKind> | Exclude<LoopKind, LoadKind>] extends [never] ? true : false = true;

export function executorFor(spec: LoopSpec, control: LoopControl): Executor {
  return (EXECUTORS[spec.kind] as Factory<LoopKind>)(spec as never, control);
}
