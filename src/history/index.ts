// History across runs: series, change points and flips from run directories (history.json, history.html).
export { buildHistory, type HistoryOptions } from './build.js';
export { writeHistory, HISTORY_FILES, type HistoryResult } from './write.js';
export type { HistoryJson, HistorySeries, HistoryChangePoint, HistoryFlip, HistoryMetric } from './types.js';
export { HISTORY_METRICS } from './types.js';
export { shownLabel, MAX_SHOWN_LABEL_CHARS } from './shown-label.js';
