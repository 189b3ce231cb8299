// run.json: what a run was asked to do and how it ended (CONTRACT.md, "A run directory").
import type { RecordedLoad } from './load.js';
import type { OutputReport } from './output.js';
import type { RecordedRunConfig } from './run-config.js';
export type RunStatus = 'running' | 'completed' | 'interrupted' | 'budget-exhausted' | 'failed' | 'aborted';

/**
 * run.json's schema: 4 since its `config` is the run config in sections as recorded (domain/run-config.ts);
 * 3 kept the config flat as `options`; 2 added the load spec (kbbench 0.1.0 wrote none).
 * store/run-info.ts migrates 1, 2 and 3 on read.
 */
export const RUN_INFO_SCHEMA_VERSION = 4;

/** What the first line of a run and report.html say when the demo's documents answered (run.json `knowledge_base.demo`). */
export const DEMO_ANSWERS_NOTICE = "answered by the demo's documents (Cobalt Desk, a fictional help desk: suites/demo/workspace.yaml), not by a knowledge base of yours";

export interface RunInfo {
  schema_version: typeof RUN_INFO_SCHEMA_VERSION;
  run_id: string;
  tool: { name: 'kbbench'; version: string };
  /** `files`: the suite files a run of several named (`run a.csv b.yaml`), absolute; `path` is the first. */
  suite: { name: string; path: string; sha256: string; files?: string[] };
  /**
   * `requests`: what the run means to send. An open loop's plan adds `starts` (a start is a case, or
   * a whole thread whose turns follow each other) and `plan_requests` (one pass through the plan).
   */
  plan: { items: number; requests: number; threads: number; models: string[]; starts?: number; plan_requests?: number };
  /** The run config it was started with, in its sections (secrets removed): what decides the plan and the target. Its load is `load.spec`. */
  config: RecordedRunConfig;
  target: { base_url: string; embedded: boolean; board_id: string; chat_id: string };
  /** The suite's thresholds (plus --threshold flags), so `kbbench report` can evaluate them again. */
  thresholds: Record<string, string[]>;
  started_at: string;
  finished_at: string | null;
  duration_ms: number | null;
  status: RunStatus;
  /**
   * Credits spent on requests that have no result line: turns replayed unrecorded to rebuild a
   * conversation on --resume. Kept here so the budget of a later resume counts them.
   */
  replay_credits?: number;
  /** Open-loop starts that were never sent (still waiting when the duration ended). */
  dropped?: number;
  /** The load spec (src/load/), with an open loop's stages (ms since the start, starts per second) and bound on outstanding starts. */
  load: RecordedLoad;
  /** Why the run stopped early, in words (never containing the key). */
  stop_reason?: string;
  abort?: { by: 'threshold' | 'max-errors' | 'max-error-rate' | 'unreachable' | 'setup'; detail: string };
  /** `--output`: what each live-metrics output sent and dropped (absent without outputs). */
  outputs?: OutputReport[];
  /** `run --label TEXT`: what kbbench history names this run by. */
  label?: string;
  /** The commit the run belongs to (GITHUB_SHA when present). */
  commit?: string;
  /** The knowledge base asked: its version when the workspace names one, and a sha256 of its documents (embedded service). */
  knowledge_base?: { version?: string; sha256: string; /** The demo's documents answered (no workspace of the user's). */ demo?: true };
  /** A suite's `grader: { min_kappa, labels }`: which model-graded check types had earned their gate when the run started. */
  grader_calibration?: GraderCalibration;
  /** `kbbench regrade`: the run whose stored answers this one judged again (nothing was sent to the service), and what became of each. */
  regrade?: RegradeInfo;
}

/** run.json `regrade`: a derived run's lineage. Lists of item ids are cut at REGRADE_LISTED; the counts are whole. */
export interface RegradeInfo {
  source_run_id: string;
  source_dir: string;
  /** Stored answers judged again with the suite's current checks (their lines carry `reused_from`). */
  judged_again: number;
  /** Stored failed or skipped requests: kept as they were (nothing to judge). */
  kept_failed: number;
  /** Planned questions whose stored answer asked another question (prompt, additional context, model, plaintext, earlier turns): not judged. */
  question_changed: number;
  question_changed_items: string[];
  /** Planned questions the source run never asked: no line (missing answers). */
  never_asked: number;
  never_asked_items: string[];
  /** Stored lines of no request of the current plan (a case removed from the suite): left out. */
  left_out: number;
  /** How long the judging took (run.json `duration_ms` is the source's: the span the answers were given in). */
  judging_ms?: number;
}

/** How many item ids run.json's `regrade` lists of each kind (the counts are whole). */
export const REGRADE_LISTED = 100;

/** How one model-graded check type stands against people's labels (a suite's `grader: { min_kappa, labels }`). */
export interface CheckTypeCalibration {
  /** Labelled answers the grader also judged. */
  n: number;
  kappa: number | null;
  kappa_ci95: [number, number] | null;
  /** False: its checks are reported but do not decide an answer's pass. */
  gating: boolean;
  /** Why, in words (`kappa 0.41 < 0.6 over 24 labels`). */
  reason: string;
}

/** The suite's calibration rule and what the labels said at the run's start, per model-graded check type. */
export interface GraderCalibration {
  min_kappa: number;
  min_labels: number;
  /** The labels file or run directory, as resolved. */
  labels: string;
  types: Record<string, CheckTypeCalibration>;
}

/** One threshold's evaluation: `ttfc_ms{model:gpt-4o}` `p(95)<2000`. */
export interface ThresholdResult {
  metric: string;
  expression: string;
  /** The tag scope, e.g. `{ model: 'gpt-4o' }`; empty for the whole run. */
  scope: Record<string, string>;
  /** The aggregated value the expression was judged on; null when there was no data. */
  value: number | null;
  pass: boolean;
  /** Why it was not judged (it does not fail the run): e.g. a timing of a run whose every answer was reused. */
  not_judged?: string;
}
