// The checks package: assertions on answers (thresholds on runs live in metrics/, beside the aggregates they read).
export * from './types.js';
export { CHECK_HANDLERS, runChecks } from './registry.js';
export { compileCheckRegex } from './regex.js';
export { normalizeText } from './text.js';
export { textSimilarity, tokenize } from './similarity.js';
export { parseVerdict, type Verdict } from './verdict.js';
export { GRADER_INSTRUCTION, buildGradingPrompt, parseGraderReply, grade } from './grading.js';
export { itemOutcome, checkState, type ItemOutcome } from './outcome.js';
export { inJudgeSample, isNotSampled, notSampledReason, NOT_SAMPLED } from './judge-sample.js';
