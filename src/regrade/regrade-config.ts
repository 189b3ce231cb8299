// A regrade's run config: the source run's, as run.json recorded it, with the judging sections replaced (suite, grader, gates, output).
import { resolve } from 'node:path';
import type { RunInfo } from '../domain/run.js';
import type { RunConfig } from '../config/run-config.js';
import { RUN_DEFAULTS } from '../config/defaults.js';
import { closedLoad } from '../config/load-section.js';
import type { Gate } from '../metrics/gates.js';

/** What `kbbench regrade` was asked: each field replaces the source run's, when given. */
export interface RegradeAsked {
  sourceDir: string;
  /** `--suite FILE`: the checks to judge with; the run's own suite file(s) when absent. */
  suitePath?: string;
  outDir?: string;
  reportsRoot: string;
  graderChat?: string;
  graderModel?: string;
  graderUrl?: string;
  /** Never recorded. */
  graderApiKey?: string;
  /** The grader-verdict cache (--grader-cache DIR or its default); absent with --no-grader-cache. Never taken from the source run. */
  graderCacheDir?: string;
  failOn?: Gate[];
  label?: string;
  commit?: string;
  /** `--baseline` without --allow-different-suites: the suite must bear the baseline's name. */
  baselineSuite?: { name: string; dir: string };
  toolVersion: string;
  timeoutMs: number;
  retries: number;
}

/**
 * The source's plan (models, repeat, shard, request options, filter, target, workspace) decides
 * which items exist and what they asked, so it is kept; what judges them is this regrade's. The load
 * section is replaced whole: nothing is sent, so a regrade is one pass over the plan (closed).
 */
export function regradeConfig(source: RunInfo, asked: RegradeAsked): RunConfig {
  const o = source.options;
  const ownSuite = source.suite.files ?? [source.suite.path];
  const suitePaths = asked.suitePath !== undefined ? [resolve(asked.suitePath)] : ownSuite;
  // The grader flags replace the source's as a whole: a new --grader-url with the old model would be neither grader.
  const graderFlags = asked.graderChat ?? asked.graderUrl ?? asked.graderModel;
  const grader = graderFlags !== undefined ? asked : o;
  return {
    suitePath: suitePaths[0]!,
    ...(suitePaths.length > 1 ? { suitePaths } : {}),
    ...(o.baseUrl !== undefined ? { baseUrl: o.baseUrl } : {}),
    auth: o.auth ?? 'header',
    ...(o.board !== undefined ? { board: o.board } : {}),
    ...(o.chat !== undefined ? { chat: o.chat } : {}),
    ...(o.models !== undefined ? { models: o.models } : {}),
    repeat: o.repeat ?? RUN_DEFAULTS.repeat,
    ...(o.shard !== undefined ? { shard: o.shard } : {}),
    ...(o.filter !== undefined ? { filter: o.filter } : {}),
    ...(o.onlyFailedDir !== undefined ? { onlyFailedDir: o.onlyFailedDir } : {}),
    requestDefaults: o.requestDefaults ?? {},
    timeoutMs: asked.timeoutMs,
    retries: asked.retries,
    ...(o.creditPrice !== undefined ? { creditPrice: o.creditPrice } : {}),
    ...(o.currency !== undefined ? { currency: o.currency } : {}),
    ...(asked.outDir !== undefined ? { outDir: asked.outDir } : {}),
    reportsRoot: asked.reportsRoot,
    thresholdFlags: o.thresholdFlags ?? [],
    embedded: o.embedded?.workspacePath !== undefined ? { workspacePath: o.embedded.workspacePath } : {},
    ...(asked.failOn !== undefined ? { failOn: asked.failOn } : {}),
    ...(asked.label !== undefined ? { label: asked.label } : {}),
    ...(asked.commit !== undefined ? { commit: asked.commit } : {}),
    ...(asked.baselineSuite !== undefined ? { baselineSuite: asked.baselineSuite } : {}),
    ...(grader.graderChat !== undefined ? { graderChat: grader.graderChat } : {}),
    ...(grader.graderModel !== undefined ? { graderModel: grader.graderModel } : {}),
    ...(grader.graderUrl !== undefined ? { graderUrl: grader.graderUrl } : {}),
    ...(asked.graderApiKey !== undefined ? { graderApiKey: asked.graderApiKey } : {}),
    ...(asked.graderCacheDir !== undefined ? { graderCacheDir: asked.graderCacheDir } : {}),
    toolVersion: asked.toolVersion,
    load: closedLoad(),
  };
}
