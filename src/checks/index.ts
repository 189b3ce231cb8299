// The checks package: assertions on answers and thresholds on runs.
export * from './types.js';
export { CHECK_HANDLERS, runChecks } from './registry.js';
export { compileCheckRegex } from './regex.js';
export { normalizeText } from './text.js';
export { textSimilarity, tokenize } from './similarity.js';
export { parseVerdict, type Verdict } from './verdict.js';
export { GRADER_INSTRUCTION, buildGradingPrompt, parseGraderReply, grade } from './grading.js';
export { itemOutcome, checkState, type ItemOutcome } from './outcome.js';
export * from './threshold-grammar.js';
export * from './threshold-parser.js';
export * from './thresholds.js';
export * from './thresholds-scope.js';
export * from './thresholds-sinks.js';
export { nearestRank } from './percentile.js';
export * from './threshold-abort.js';
