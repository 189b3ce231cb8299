// The compare module's public face: compareRuns, its options, the renderers and the writer.
export * from './types.js';
export { compareRuns, type CompareRoles } from './compare-runs.js';
export { DEFAULT_COMPARE_OPTIONS, compareOptionsFrom, parseFailOn, parseTolerance, type CompareFlagValues } from './options.js';
export { renderCompareConsole } from './console.js';
export { renderCompareMarkdown } from './markdown.js';
export { renderCompareHtml } from './html/render.js';
export { writeComparison, COMPARE_FILES, type WrittenComparison } from './write.js';
export { mannWhitneyU, holmAdjust } from './mann-whitney.js';
export { pairedBootstrapChange } from './bootstrap.js';
