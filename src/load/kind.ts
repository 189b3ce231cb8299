// The one interface a load kind implements (k6's ExecutorConfig: one type per kind that validates,
// describes and runs itself). Everything the rest of kbbench asks of a load is a member here, so
// nothing outside src/load/kinds/ branches on a kind: adding one is a folder and a registry line
// (src/load/kinds/index.ts; docs/architecture.md, "Adding a load kind").
import type { RequestOptions } from '../domain/suite.js';
import type { z } from 'zod';
import type { LoadSpec, RunLoad } from '../domain/load.js';
import type { Sample } from '../domain/sample.js';
import type { Shard } from '../plan/types.js';
import type { LoadProfile } from '../runner/arrivals.js';
import type { Loop } from '../runner/loop/executor.js';
import type { RunEvent } from '../runner/unit.js';
import type { FieldNames, LoadField, LoadInput } from './input.js';

/** What a run adds to its spec when it starts the loop: the seed of its random draws, its `--shard`. */
export interface LoopContext {
  seed?: number;
  shard: Shard | null;
  /** `--models M` (one): the model of a request whose own record names none (a traffic log's); absent: the service's default. */
  model?: string;
  /**
   * The options of a request a kind makes itself (a traffic log's record): the suite's `defaults`
   * under its own, the flags' (`--no-stream`, `--method`…) over both, as the plan merges a case's.
   */
  requestLayers?: { suite?: RequestOptions; flags?: RequestOptions };
  /** `--resume DIR`: the lines the run recorded (results.ndjson), which a kind that reads its own items (a log) skips. */
  recorded?: () => AsyncIterable<Sample>;
  /** `--resume DIR`: the item ids of the starts the run dropped (timeline.ndjson), which such a kind does not send again either. */
  droppedBefore?: () => AsyncIterable<string>;
  /** A resume against a fresh embedded service: the conversations the run began are gone (threads start anew). */
  conversationsGone?: boolean;
}

/** How `--workers` splits a kind's bound on units in flight: each worker needs one of its places. */
export interface WorkerPlaces {
  count: number;
  /** The flag that set the bound, as the notice names it (`--concurrency`, `--max-in-flight`). */
  flag: string;
  /** "slot" or "place": the notice's word for one of them. */
  word: string;
  /** Below this many places the default is one worker (one event loop does the work). */
  oneLoopBelow?: number;
}

/** `S`: the kind's spec (one member of LoadSpec, once its folder merges it into LoadSpecs). */
/** The rates a kind's probes found (its `sweep` event, without its type). */
export type RatesFound = Omit<Extract<RunEvent, { type: 'sweep' }>, 'type'>;

/** What a kind with probes does with the rates they found. */
export interface ProbedRates<S> {
  /** Target starts per second on the run's clock: 0 over the probes, then the rates. */
  profile(found: RatesFound): LoadProfile;
  /** The live line's phase at `tMs` (probing while `profile` is null, then which rate). */
  phase(profile: LoadProfile | null, tMs: number): string;
  /** run.json's `load` once the rates are known. */
  recorded(found: RatesFound, spec: S): RunLoad;
}

export interface LoadKind<S extends { kind: string } = LoadSpec> {
  kind: S['kind'];
  /** One line for --help, docs and errors. */
  summary: string;

  // ---- Reading it: the same schema and rules for flags and a suite's `load:` block.
  /** Fields whose presence asks for this kind (none: the default, closed). */
  triggers: readonly LoadField[];
  /** Fields this kind reads; any other field given is an error (load/rules.ts says why, or `refuse` does). */
  accepts: readonly LoadField[];
  /** This kind's own word for a field it does not take, where the general rule would mislead. */
  refuse?: Partial<Record<LoadField, (n: FieldNames) => string>>;
  /** Said when another kind's field (`other`, by its name) is given as well. */
  clash(other: string, n: FieldNames): string;
  /** The spec's own schema: the spec built from flags and the one read from run.json are checked by it. */
  schema: z.ZodType<S>;
  /** The spec's key that a schema issue lands on, as the input field that set it (default: load/rules.ts). */
  paths?: Partial<Record<string, LoadField>>;
  /** The spec from the input: throws LoadFieldError naming the field at fault. */
  build(input: LoadInput, n: FieldNames): S;

  // ---- Running it.
  /** The runner's loop of this spec (runner/loop/executor.ts): its executor, and its share per worker. */
  loop(spec: S, run: LoopContext): Loop;
  /**
   * True: the run cycles the plan until a schedule of its own ends (a live line, `interrupted` when
   * stopped early, the plan drawn whole by every worker); false: the plan is sent once (closed).
   */
  timeBound: boolean;
  /**
   * Its first results are probes (recorded as warmup, no target rate, no cap) until its executor
   * pushes a `sweep` event with the rates it found (a sweep): what that event means. Absent: no probes.
   */
  probed?: ProbedRates<S>;
  /** Its schedule starts on a whole wall-clock second, so its stages start where a timeline line does. */
  startsOnWholeSecond?: boolean;
  /** `--shard i/N` takes a segment of this kind's schedule of starts, not a slice of the plan (runner/segment.ts). */
  shardsSchedule?: boolean;
  /** Why `--workers` keeps one event loop for this kind; absent: it splits (its Loop's `share`). */
  oneWorker?: string;
  /** The bound `--workers` splits (each worker needs one of its places); absent: none to keep. */
  workerPlaces?(spec: S): WorkerPlaces;
  /** Why `--resume` cannot continue it (a schedule is tied to its start, a probe to its moment); absent: it can. */
  noResume?: string;
  /**
   * A resumed run's clock at its start, on the schedule's clock (ms): where the schedule goes on, so
   * its seconds and stage windows are the ones an uninterrupted run had; absent: 0 (it starts anew).
   */
  resumeClockMs?(spec: S, run: LoopContext): Promise<number>;
  /** Its requests come with conversations of their own, not the plan's threads (a traffic log's). */
  ownConversations?: true;
  /** Why a run of it takes one model at most (`--models a,b` refused with this); absent: any number. */
  oneModel?: string;
  /**
   * A resume's own check of the flags given with it against the recorded spec (a contradiction, a
   * changed input file unless `allowChanged`): why it is refused, or null. Absent: the flags' load is
   * built as asked (src/session/resume-options.ts).
   */
  resumeClash?(recorded: S, input: LoadInput, n: FieldNames, allowChanged: boolean): string | null;
  /**
   * Why a credit forecast cannot count what this kind sends (its volume depends on the service's
   * answers or on probes); absent: the plan, or its schedule of starts, gives the count.
   */
  volumeUnknown?: string;

  // ---- Saying what it does.
  /** The console header's load line; null when the request count says it (a closed loop). */
  describe(spec: S, run: { concurrency: number; shard?: Shard | null }): string | null;
  /** Starts per second over time, known before the run (an open loop's schedule); absent: none. */
  arrivalProfile?(spec: S): LoadProfile;
  /** Workers over time, known before the run (a ramp of workers); absent: none. */
  workersProfile?(spec: S): LoadProfile;
  /**
   * run.json's schedule of the run: its stages and its bound (a shard of N runs 1/N of a rate,
   * `kbbench merge` adds them back up); absent: none known before the run.
   */
  schedule?(spec: S, shardCount: number): RunLoad;
  /** The open loop's bound on outstanding starts; absent: none (a closed loop's bound is its concurrency). */
  maxInFlight?(spec: S): number;
  /** The closed loop's `--concurrency` the spec carries; absent: the spec does not say it. */
  concurrency?(spec: S): number;
}
