// The metrics module's public face: one HDR configuration, the streaming summarizer, the results reader.
export * from './histogram.js';
export * from './histogram-file.js';
export * from './request-stats.js';
export * from './case-stats.js';
export * from './case-table.js';
export * from './credit-distribution.js';
export * from './timeline.js';
export * from './details.js';
export * from './summarizer.js';
export * from './own-record.js';
