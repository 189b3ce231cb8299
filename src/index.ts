// kbbench as a library: the same pieces the CLI wires together, in data-flow order.
export * from './domain/index.js';
export * from './protocol/index.js';
export type { Summary } from './domain/summary.js';
export { loadSuite, parseSuite, SuiteError } from './suite/index.js';
export { buildPlan, describePlan, parseShard, formatItemId, parseItemId, type ItemId, type Plan, type PlanUnit, type PlanRequest } from './plan/index.js';
export { createClient, type ClientOptions, type KbClient, type StreamEvent } from './client/index.js';
export { startRun, type RunEvent, type RunnerOptions, type RunHandle, type UnitSource } from './runner/index.js';
export { CreditLedger } from './credits/ledger.js';
export { runChecks, textSimilarity } from './checks/index.js';
export { createThresholdSinks, validateThresholds, type ThresholdSinks } from './metrics/index.js';
export { runSession, type SessionHooks, type SessionResult } from './session/run-session.js';
export type { RunConfig, LoadSection } from './config/run-config.js';
/** The name of 0.1.0's library for what is now RunConfig. */
export type { RunConfig as RunSessionOptions } from './config/run-config.js';
export { estimateSuite } from './estimate/estimate.js';
export { createSummarizer, mergeHistogramFiles, IntervalRecorder, mergeTimelines, createLoadAnalysis, type LiveInterval } from './metrics/index.js';
export { readTimeline } from './store/timeline-file.js';
export { readResults } from './store/results-reader.js';
export { buildReports, renderConsoleSummary } from './report/index.js';
export { compareRuns } from './compare/index.js';
export { buildHistory, writeHistory, type HistoryJson } from './history/index.js';
/** The embedded reference service, for tests and demos of your own (it runs in your process). */
export { startReferenceService, type ServiceOptions, type RunningService } from './server/index.js';
