// Wire types and zod schemas of the knowledge-base conversation API (interface.md, public-facts.md).
// Shared by client/ and server/; imports nothing of ours.
import { z } from 'zod';

/** `true` / `active` turn a flag-like string parameter on; anything else is off. */
export function isFlagOn(value: unknown): boolean {
  if (value === true) return true;
  if (typeof value !== 'string') return false;
  return value === 'true' || value === 'active';
}

export const API_PATHS = {
  conversation: '/api/conversation',
  conversationNew: '/api/conversation/new',
  boards: '/api/boards',
  chats: '/api/chats',
} as const;

export const continuePath = (conversationId: string): string =>
  `${API_PATHS.conversation}/${encodeURIComponent(conversationId)}`;

/** Key locations a server accepts: `api_key` query, `api_key` header, `x-api-key` header. */
export const API_KEY_QUERY = 'api_key';
export const API_KEY_HEADERS = ['api_key', 'x-api-key'] as const;

const flagString = z.union([z.string(), z.boolean()]);

/** Body of POST /api/conversation (ask). */
export const AskBodySchema = z.object({
  prompt: z.string(),
  model: z.string().optional(),
  plaintext: flagString.optional(),
  streaming: flagString.optional(),
  include_usage: z.union([z.boolean(), z.string()]).optional(),
  additional_context: z.string().optional(),
});
export type AskBody = z.infer<typeof AskBodySchema>;

/** Body of POST /api/conversation/{id} (continue). */
export const ContinueBodySchema = AskBodySchema.extend({
  save_history: z.union([z.boolean(), z.string()]).optional(),
  user: z.string().optional(),
  source: z.string().optional(),
});
export type ContinueBody = z.infer<typeof ContinueBodySchema>;

/** Body of POST /api/conversation/new. boardId/chatId may come as query board_id/chat_id instead. */
export const CreateConversationBodySchema = z.object({
  boardId: z.string().optional(),
  chatId: z.string().optional(),
  name: z.string().optional(),
});
export type CreateConversationBody = z.infer<typeof CreateConversationBodySchema>;

export const AnswerSchema = z.object({
  text: z.string(),
  credits_used: z.number(),
  credits_remaining: z.number(),
});
export type Answer = z.infer<typeof AnswerSchema>;

/**
 * A conversation id goes into the path of the continue endpoint as one segment: `.` and `..` would
 * be read as the path itself or its parent (`/api/conversation/..` is `/api`), and an empty one as
 * the ask endpoint. Such an id from the service is refused, never sent.
 */
export const isPathSegmentId = (id: string): boolean => id !== '' && id !== '.' && id !== '..';

export const ConversationSchema = z.object({
  conversationId: z.string().refine(isPathSegmentId),
  name: z.string(),
  createdAt: z.string(),
  boardId: z.string(),
  chatId: z.string(),
});
export type Conversation = z.infer<typeof ConversationSchema>;

export const BoardSchema = z.object({ id: z.string(), name: z.string() });
export type Board = z.infer<typeof BoardSchema>;
export const BoardListSchema = z.object({ data: z.array(BoardSchema) });
export type BoardList = z.infer<typeof BoardListSchema>;

export const ChatListSchema = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      conversations: z.array(z.object({ id: z.string(), name: z.string() })),
    }),
  ),
});
export type ChatList = z.infer<typeof ChatListSchema>;

/** Error bodies. interface.md documents `{error}`, `{error, message}`, `{error, message, details}`. */
export const ErrorBodySchema = z.object({
  error: z.string(),
  message: z.string().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const ERROR_UNAUTHORIZED = 'Unauthorized';
export const MESSAGE_UNAUTHORIZED = 'Invalid or missing API key.';
export const ERROR_VALIDATION = 'Validation failed';
export const MESSAGE_VALIDATION = 'Request validation failed. Please check your parameters.';

/**
 * Status codes interface.md leaves open, as kbbench's reference service answers them
 * (README: "Status codes"). The client maps by status first and by body second.
 */
export const STATUS = {
  ok: 200,
  created: 200,
  validation: 400,
  unauthorized: 401,
  creditsExhausted: 402,
  notFound: 404,
  payloadTooLarge: 413,
  rateLimited: 429,
  serverError: 500,
  /** The reference service's overload answer when started with overloadStatus 503 (with Retry-After). */
  serviceUnavailable: 503,
} as const;

export const CONVERSATION_DEFAULT_NAME_PREFIX = 'API Conversation - ';
