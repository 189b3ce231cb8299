// A regrade's run config: the source run's, as run.json recorded it, with the judging sections replaced (suite, grader, gates, output).
import { resolve } from 'node:path';
import type { RunInfo } from '../domain/run.js';
import { parseRunConfig, type RunConfig } from '../config/run-config.js';
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
  const o = source.config;
  const ownSuite = source.suite.files ?? [source.suite.path];
  const suitePaths = asked.suitePath !== undefined ? [resolve(asked.suitePath)] : ownSuite;
  // The grader flags replace the source's as a whole: a new --grader-url with the old model would be neither grader.
  const askedGrader = asked.graderChat ?? asked.graderUrl ?? asked.graderModel;
  const grader = askedGrader !== undefined ? { chat: asked.graderChat, model: asked.graderModel, url: asked.graderUrl } : o.grader;
  const opt = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } => (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
  return parseRunConfig({
    target: { ...opt('baseUrl', o.target.baseUrl), auth: o.target.auth ?? RUN_DEFAULTS.auth, ...opt('board', o.target.board), ...opt('chat', o.target.chat), ...opt('kbVersion', o.target.kbVersion) },
    plan: {
      suitePath: suitePaths[0]!, ...(suitePaths.length > 1 ? { suitePaths } : {}), ...opt('models', o.plan.models), repeat: o.plan.repeat ?? RUN_DEFAULTS.repeat,
      ...opt('filter', o.plan.filter), ...opt('onlyFailedDir', o.plan.onlyFailedDir),
    },
    placement: { ...opt('shard', o.placement.shard) },
    request: { requestDefaults: o.request.requestDefaults ?? {}, timeoutMs: asked.timeoutMs, retries: asked.retries },
    budget: { ...opt('creditPrice', o.budget.creditPrice), ...opt('currency', o.budget.currency) },
    stop: {},
    gates: { thresholdFlags: o.gates.thresholdFlags ?? [], ...opt('failOn', asked.failOn), ...opt('baselineSuite', asked.baselineSuite) },
    outputs: { ...opt('outDir', asked.outDir), reportsRoot: asked.reportsRoot },
    embedded: { ...opt('workspacePath', o.embedded.workspacePath) },
    grader: { ...opt('chat', grader.chat), ...opt('model', grader.model), ...opt('url', grader.url), ...opt('apiKey', asked.graderApiKey), ...opt('cacheDir', asked.graderCacheDir) },
    record: { ...opt('label', asked.label), ...opt('commit', asked.commit), toolVersion: asked.toolVersion },
    load: closedLoad(),
  });
}
