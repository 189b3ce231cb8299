// The plan package: a suite and run options in, a lazy index space of units out.
export * from './types.js';
export { buildPlan, countUnits, mergeOptions, narrowPlan, requestsOf, IndexBits, unitKeyOf, unitModel, unitRepeat } from './build.js';
export * from './item-id.js';
export { formatShard, parseShard, shardOf } from './shard.js';
export { describePlan, describePlanLazily, type LazyPlanDescription, type PlanDescription, type PlannedRequest } from './describe.js';
