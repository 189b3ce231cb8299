// run.json's content at the start of a run, and what the run means to send.
import { resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { LoadSpec, RecordedLoad } from '../domain/load.js';
import { RUN_INFO_SCHEMA_VERSION, type RunInfo } from '../domain/run.js';
import { arrivalProfileOf, scheduleOf } from '../load/index.js';
import { plannedLoad } from './load-profile.js';
import { isoNow } from '../runner/index.js';
import { recordableConfig, type RunConfig } from '../config/run-config.js';
import type { PreparedRun } from './prepare.js';
import type { ResolvedTarget } from './target.js';

/**
 * An open loop sends what its schedule starts, not the plan once: `starts` (a start is a case, or a
 * whole thread) and the `requests` they imply; `plan_requests` keeps the plan's own count.
 */
function openLoopPlan(spec: LoadSpec, options: RunConfig, prepared: PreparedRun): Partial<RunInfo['plan']> {
  const profile = arrivalProfileOf(spec);
  if (profile === null) return {};
  const load = plannedLoad(profile, prepared.plan, options.placement.shard);
  return { requests: load.requests, starts: load.starts, plan_requests: prepared.plan.counts.requests };
}

/** run.json's `load`: the spec, with an open loop's stages (a shard's share of them). */
export function recordedLoad(spec: LoadSpec, options: Pick<RunConfig, 'placement'>): RecordedLoad {
  return { spec, ...scheduleOf(spec, options.placement.shard?.count ?? 1) };
}

/** run.json's `config`, with what the run was for when not a run of its own. */
function recordedConfigOf(options: RunConfig, purpose: string | undefined): RunInfo['config'] {
  const recorded = recordableConfig(options);
  return purpose ? { ...recorded, record: { ...recorded.record, purpose } } : recorded;
}

export function initialRunInfo(prepared: PreparedRun, options: RunConfig, target: ResolvedTarget, previous: RunInfo | null, purpose?: string): RunInfo {
  const { plan, suite, load } = prepared;
  return {
    schema_version: RUN_INFO_SCHEMA_VERSION,
    run_id: previous?.run_id ?? randomUUID(),
    tool: { name: 'kbbench', version: options.record.toolVersion },
    suite: { name: suite.name, path: suite.path, sha256: suite.sha256, ...(options.plan.suitePaths ? { files: options.plan.suitePaths.map((file) => resolve(file)) } : {}) },
    plan: { items: plan.counts.items, requests: plan.counts.requests, threads: plan.counts.threads, models: plan.models, ...openLoopPlan(load, options, prepared) },
    config: recordedConfigOf(options, purpose),
    target: { base_url: target.embedded ? 'embedded' : target.baseUrl, embedded: target.embedded, board_id: target.boardId, chat_id: target.chatId },
    thresholds: prepared.thresholds,
    started_at: previous?.started_at ?? isoNow(),
    finished_at: null,
    duration_ms: null,
    status: 'running',
    ...(options.record.label !== undefined ? { label: options.record.label } : {}),
    ...(options.record.commit !== undefined ? { commit: options.record.commit } : {}),
    ...(target.knowledgeBase ? { knowledge_base: target.knowledgeBase } : {}),
    load: recordedLoad(load, options),
    ...(prepared.calibration ? { grader_calibration: prepared.calibration } : {}),
  };
}

/** Requests the run means to send: the plan's, or (open loop) those its planned starts imply. */
export function plannedTotal(options: RunConfig, prepared: PreparedRun): number {
  const profile = arrivalProfileOf(prepared.load);
  return profile === null ? prepared.plan.counts.requests : plannedLoad(profile, prepared.plan, options.placement.shard).requests;
}
