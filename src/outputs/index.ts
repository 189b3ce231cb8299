// Live-metrics outputs: the interface, the registry, the stream every closed second goes through.
export type { ClosedSecond, ModelSecond, Output, OutputContext, OutputFactory } from './output.js';
export type { OutputKind, OutputReport, OutputSpec } from '../domain/output.js';
export { OUTPUT_KINDS } from '../domain/output.js';
export { OUTPUTS, createOutputs, loadOutputs } from './registry.js';
export { OutputStream, OUTPUT_STOP_DEADLINE_MS } from './stream.js';
export { ModelTally } from './model-tally.js';
export { BatchQueue, displayUrl, type BatchQueueOptions } from './batch-queue.js';
export { parseOutputSpec, recordableOutputs, type OutputSpecResult } from './spec.js';
export { outputReportLine } from './report-line.js';
