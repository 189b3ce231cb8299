// run.json's content at the start of a run, and what the run means to send.
import { randomUUID } from 'node:crypto';
import type { RunInfo } from '../domain/run.js';
import { requestsOf } from '../plan/index.js';
import { isoNow } from '../runner/index.js';
import { loadShapeOf, maxInFlightOf } from './load-shape.js';
import { recordableOptions, type RunSessionOptions } from './options.js';
import type { PreparedRun } from './prepare.js';
import type { ResolvedTarget } from './target.js';

export function initialRunInfo(prepared: PreparedRun, options: RunSessionOptions, target: ResolvedTarget, previous: RunInfo | null, purpose?: string): RunInfo {
  const { plan, suite } = prepared;
  const shape = loadShapeOf(options);
  return {
    run_id: previous?.run_id ?? randomUUID(),
    tool: { name: 'kbbench', version: options.toolVersion },
    suite: { name: suite.name, path: suite.path, sha256: suite.sha256 },
    plan: { items: plan.counts.items, requests: plan.counts.requests, threads: plan.counts.threads, models: plan.models },
    options: { ...recordableOptions(options), ...(purpose ? { purpose } : {}) },
    target: { base_url: target.embedded ? 'embedded' : target.baseUrl, embedded: target.embedded, board_id: target.boardId, chat_id: target.chatId },
    thresholds: prepared.thresholds,
    started_at: previous?.started_at ?? isoNow(),
    finished_at: null,
    duration_ms: null,
    status: 'running',
    ...(shape ? { load: { stages: shape.stages, max_in_flight: maxInFlightOf(options) } } : {}),
  };
}

/**
 * Requests the run means to send. An open loop cycles through the plan's units (a thread start
 * sends all its turns): whole passes are counted from the plan's totals, the last partial pass by
 * walking its first units, so nothing is materialised.
 */
export function plannedTotal(options: RunSessionOptions, prepared: PreparedRun): number {
  const { counts } = prepared.plan;
  if (options.rate === undefined || options.durationMs === undefined) return counts.requests;
  if (counts.items === 0) return 0;
  const starts = Math.floor((options.rate * options.durationMs) / 1000);
  let total = Math.floor(starts / counts.items) * counts.requests;
  let rest = starts % counts.items;
  for (const unit of prepared.plan.units()) {
    if (rest-- <= 0) break;
    total += requestsOf(unit);
  }
  return total;
}
