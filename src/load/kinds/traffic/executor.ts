// The replay's executor: records come off the log as a stream (a small read-ahead, never the file),
// each due at its scaled instant; a conversation's turns go through the pacer (never before the
// previous answer); the skeleton holds what passes --max-in-flight and records lateness as for every
// open loop. Each record brings its own unit: a one-time question, or one turn of its conversation.
import type { Sample } from '../../../domain/sample.js';
import { caseId, threadKey, turnId } from '../../../plan/item-id.js';
import type { RequestOptions } from '../../../domain/suite.js';
import { mergeOptions } from '../../../plan/build.js';
import type { PlanRequest, PlanUnit, Shard } from '../../../plan/types.js';
import type { Executor, Loop, LoopControl, NextStart } from '../../../runner/loop/executor.js';
import { firstItemOf } from '../../../runner/unit.js';
import { workerShare } from '../../../runner/segment.js';
import { ConversationPacer, type PacedTurn } from './pacing.js';
import { readLog } from './read-log.js';
import { knownConversation, pendingRecords, resumeClockMs, trafficResumeOf, type NumberedRecord, type ResumeProgress } from './resume.js';
import { replaySchedule, type DueRecord, type ReplayOptions } from './schedule.js';

export interface TrafficLoopSpec {
  file: string;
  replay: ReplayOptions;
  maxInFlight: number;
  /** The model of a record that names none (`--models M`); absent: the service's default. */
  model?: string;
  /** The suite's defaults under a record's own options, the flags' over both (kind.ts `LoopContext`). */
  requestLayers?: { suite?: RequestOptions; flags?: RequestOptions };
  /** --resume: the lines the run recorded; their records are not sent again. */
  recorded?: () => AsyncIterable<Sample>;
  /** --resume: the item ids of the records the run dropped (timeline.ndjson); they are not sent again either. */
  droppedBefore?: () => AsyncIterable<string> | Iterable<string>;
  /** The resumed run's conversations are gone (a fresh embedded service): a partly done one goes on in a new thread. */
  conversationsGone?: boolean;
}

/** Records read ahead of their instant: enough to keep a burst on time, bounded whatever the file's size. */
const READ_AHEAD = 512;
/** How soon to look again when the read-ahead ran dry before the log's end. */
const POLL_MS = 5;

/** The label and parameter of a record's model: its own, else --models', else the service's default. */
function requestOf(due: DueRecord, turn: number | null, fallbackModel: string | undefined, layers?: TrafficLoopSpec['requestLayers']): PlanRequest {
  const { record } = due;
  const sent = record.model ?? fallbackModel;
  const model = sent ?? 'default';
  const id = due.conversationKey === null ? caseId(`line-${record.line}`, model, 1, due.pass) : turnId(record.conversation!, turn!, model, 1, due.pass);
  const own = {
    ...(record.additional_context !== undefined ? { additional_context: record.additional_context } : {}),
    ...(record.user !== undefined ? { user: record.user } : {}),
    ...(record.source !== undefined ? { source: record.source } : {}),
  };
  // As a case's (plan/build.ts): nothing the flags or the suite say is dropped for a replayed record.
  const options = layers === undefined ? own : mergeOptions(layers.suite, own, layers.flags);
  return {
    id, case_id: due.conversationKey === null ? `line-${record.line}` : null, thread_id: due.conversationKey === null ? null : record.conversation!, turn,
    model, request_model: sent ?? null, repeat: 1, prompt: record.prompt, options, checks: record.checks,
  };
}

/** A paced record as the unit the skeleton runs: a case, or a one-turn thread (created at its first turn). */
export function unitOf(paced: PacedTurn, turn: number | null, fallbackModel?: string, layers?: TrafficLoopSpec['requestLayers']): PlanUnit {
  const { due } = paced;
  const request = requestOf(due, turn, fallbackModel, layers);
  if (due.conversationKey === null) return { kind: 'case', index: due.index, request };
  return {
    kind: 'thread', index: due.index, key: threadKey(due.record.conversation!, request.model, 1, due.pass), thread_id: request.thread_id!, model: request.model, repeat: 1,
    turns: [request], ...(paced.conversationId !== null ? { conversation_id: paced.conversationId } : {}),
  };
}

/** The next records of the replay, read a little ahead of their instants by one background reader. */
class ReadAhead {
  readonly records: NumberedRecord[] = [];
  ended = false;
  failure: unknown = null;
  private reading = false;

  constructor(private readonly source: AsyncIterator<NumberedRecord>) {}

  fill(): void {
    if (this.reading || this.ended || this.records.length >= READ_AHEAD) return;
    this.reading = true;
    void this.read();
  }

  private async read(): Promise<void> {
    try {
      while (this.records.length < READ_AHEAD) {
        const next = await this.source.next();
        if (next.done) {
          this.ended = true;
          break;
        }
        this.records.push(next.value);
      }
    } catch (error) {
      this.failure = error;
      this.ended = true;
    } finally {
      this.reading = false;
    }
  }
}

export function trafficExecutor(spec: TrafficLoopSpec, control: Pick<LoopControl, 'push'>): Executor {
  const schedule = replaySchedule(() => readLog(spec.file), spec.replay);
  // A resumed replay skips what has a line or was dropped, and goes on from the first record with neither.
  const recorded = spec.recorded;
  const resumed: ResumeProgress | null = recorded === undefined ? null : { done: null };
  const records = resumed && recorded !== undefined ? pendingRecords(schedule, () => trafficResumeOf(recorded(), spec.droppedBefore?.() ?? []), resumed) : schedule;
  const log = new ReadAhead(records[Symbol.asyncIterator]());
  const ahead = log.records;
  const pacer = new ConversationPacer((due) => (resumed?.done && spec.conversationsGone !== true ? knownConversation(resumed.done, due) : null));
  const released: PacedTurn[] = [];
  // The conversation of each thread unit in flight, by its index (the skeleton stamps a copy of the unit).
  const units = new Map<number, string>();
  let elapsedMs = 0;
  // --duration counts on the log's clock, which a resumed run's clock goes on from (resumeClockMs).
  const endMs = spec.replay.durationMs ?? Infinity;

  const start = (paced: PacedTurn): NextStart => {
    const key = paced.due.conversationKey;
    const unit = unitOf(paced, paced.turn, spec.model, spec.requestLayers);
    if (key !== null) units.set(unit.index, key);
    return { kind: 'start', intendedAtMs: paced.due.dueMs, index: paced.due.index, unit };
  };
  const answered = (unit: PlanUnit, last: Sample | null): void => {
    const key = units.get(unit.index);
    if (key === undefined) return;
    units.delete(unit.index);
    const next = pacer.answered(key, last?.conversation_id ?? null, elapsedMs);
    if (next) released.push(next);
  };
  log.fill();
  return {
    cycles: true,
    timeBound: true,
    namesDrops: true,
    maxInFlight: () => spec.maxInFlight,
    next: (state) => {
      elapsedMs = state.elapsedMs;
      if (log.failure !== null) throw log.failure;
      if (elapsedMs >= endMs) {
        // The duration is over: turns still waiting behind an answer are dropped, counted and named, never lost.
        const held = [...released.splice(0), ...pacer.drain()].map((paced) => firstItemOf(unitOf(paced, paced.turn, spec.model, spec.requestLayers)));
        if (held.length > 0) control.push({ type: 'dropped', count: held.length, items: held });
        return { kind: 'done' };
      }
      const ready = released.shift();
      if (ready) return start(ready);
      while (ahead.length > 0 && ahead[0]!.dueMs <= elapsedMs) {
        // The pacer numbers a conversation's turns in file order, in its one entry per conversation.
        const paced = pacer.offer(ahead.shift()!, elapsedMs);
        log.fill();
        if (paced) return start(paced);
      }
      log.fill();
      if (ahead.length > 0) return { kind: 'wait', untilMs: Math.min(endMs, ahead[0]!.dueMs) };
      if (!log.ended) return { kind: 'wait', untilMs: elapsedMs + POLL_MS };
      // The log is done: turns held behind answers still go when those arrive (a settle wakes the loop).
      if (pacer.held > 0) return { kind: 'wait', untilMs: null };
      return { kind: 'done' };
    },
    settled: (unit: PlanUnit, last: Sample | null) => answered(unit, last),
    // A dropped turn has no answer to wait for: its conversation's next turn goes at its own instant (or now, if due).
    dropped: (dropped: readonly PlanUnit[]) => {
      for (const unit of dropped) answered(unit, null);
    },
  };
}

/** Where a resumed replay's clock starts on the log's (resume.ts `resumeClockMs`; the log read up to its first record left); 0 for a run that is not a resume. */
export async function trafficResumeClockMs(spec: TrafficLoopSpec): Promise<number> {
  const recorded = spec.recorded;
  if (recorded === undefined) return 0;
  const schedule = replaySchedule(() => readLog(spec.file), spec.replay);
  return resumeClockMs(pendingRecords(schedule, () => trafficResumeOf(recorded(), spec.droppedBefore?.() ?? []), { done: null }));
}

/** The run's loop: a --shard's part of the conversations, each worker a part of that, with its share of the cap. */
export function trafficLoop(spec: TrafficLoopSpec): Loop {
  return {
    kind: 'traffic',
    executor(control) {
      if (spec.replay.durationMs !== undefined) control.setRetryDeadline(spec.replay.durationMs);
      return trafficExecutor(spec, control);
    },
    share: (index, count) => trafficLoop({
      ...spec,
      replay: { ...spec.replay, parts: [...(spec.replay.parts ?? []), { index, count }] },
      maxInFlight: workerShare(spec.maxInFlight, index, count, '--max-in-flight'),
    }),
  };
}

export function shardParts(shard: Shard | null): ReplayOptions['parts'] {
  return shard === null ? [] : [{ index: shard.index, count: shard.count }];
}
