// Stream chunk shapes. The live wire format is undocumented beyond `finish` and the usage chunk;
// these are the dialects kbbench decodes and the reference service can speak.
import { z } from 'zod';

export { STREAM_DIALECTS, type StreamDialect } from './dialects.js';

/** AI SDK UI-message chunk subset (SSE `data:` payloads, also the NDJSON line shape). */
export const UiChunkSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('start'), messageId: z.string().optional() }),
  z.object({ type: z.literal('text-start'), id: z.string().optional() }),
  z.object({ type: z.literal('text-delta'), id: z.string().optional(), delta: z.string() }),
  z.object({ type: z.literal('text-end'), id: z.string().optional() }),
  z.object({ type: z.literal('finish'), finishReason: z.string().optional() }),
  z.object({ type: z.literal('usage'), credits_used: z.number(), credits_remaining: z.number().optional() }),
  z.object({ type: z.literal('error'), errorText: z.string().optional() }),
]);
export type UiChunk = z.infer<typeof UiChunkSchema>;

export const SSE_DONE = '[DONE]';

/** The usage chunk interface.md documents: `{type: "usage", credits_used: n}` after `finish`. */
export interface UsageChunk {
  type: 'usage';
  credits_used: number;
  credits_remaining?: number;
}
