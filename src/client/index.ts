// The client package: a typed client of every endpoint, stream decoding and its timed events.
export { createClient, collectAnswer, type KbClient, type PoolStats } from './client.js';
export { DEFAULT_API_KEY_HEADER, DEFAULT_TIMEOUT_MS, type ClientOptions } from './options.js';
export type { StreamEvent } from './exchange.js';
export { decodeStream, type DecodeStreamOptions } from './decode-stream.js';
export { ResponseDecoder } from './decode/response-decoder.js';
export type { AnswerDialect, DecodedEvent } from './decode/events.js';
export { parseRetryAfterMs } from './http-errors.js';
export {
  buildAskRequest,
  buildContinueRequest,
  buildCreateConversationRequest,
  buildListBoardsRequest,
  buildListChatsRequest,
  type AuthConfig,
  type WireRequest,
} from './request-builder.js';
