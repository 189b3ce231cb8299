// The runner's public face: start a run over a plan's units and iterate what happens; it never prints.
export { startRun, type RunHandle, type RunnerOptions } from './run.js';
export { DEFAULT_GRACEFUL_STOP_MS } from './loop/skeleton.js';
export { closedLoop } from './loop/closed.js';
export type { Executor, Loop, LoopControl, LoopState, NextStart } from './loop/executor.js';
export type { RunEvent, SweepProbe, UnitSource } from './unit.js';
export type { AbortBy, StopReason } from './gate.js';
export type { CheckFn, CheckSubject } from './send.js';
export { monotonicMs, isoNow, sleep } from './clock.js';
