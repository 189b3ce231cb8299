// The embedded reference service's public surface, for cli/ and tests (the harness's client never imports it).
export { startReferenceService, describeService, type RunningService, type ServiceBoardSummary } from './listen.js';
export { createReferenceApp, type ReferenceApp, DIALECT_HEADER, SPLIT_HEADER, CRLF_HEADER } from './app.js';
export { FAULT_HEADER, FAULT_KINDS, type FaultKind } from './faults.js';
export {
  resolveServiceOptions,
  ServiceOptionsSchema,
  ServiceOptionsError,
  DEMO_WORKSPACE_PATH,
  type ServiceOptions,
  type ResolvedServiceOptions,
} from './options.js';
export { loadWorkspace, WorkspaceError, type Workspace } from './workspace.js';
export { DEFAULT_MODEL_PROFILES, type ModelProfile } from './model-profiles.js';
export { NO_ANSWER_TEXT } from './compose.js';
export type { ServiceRequest, ServiceResponse } from './service-types.js';
export type { ChildReadyLine } from './child-lifecycle.js';
export { REPLAY_API_KEY, type Recording, type RecordedAnswer } from './replay.js';
