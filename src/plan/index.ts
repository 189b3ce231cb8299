// The plan package: a suite and run options in, the work items of a run out.
export * from './types.js';
export { buildPlan, countPlan, itemKey, mergeOptions } from './build.js';
export { caseItemId, threadKey, turnItemId } from './item-id.js';
export { formatShard, parseShard, shardOf } from './shard.js';
export { describePlan, type PlanDescription, type PlannedRequest } from './describe.js';
