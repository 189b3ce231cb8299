// The zod schema of a workspace file: accounts, boards with their chat nodes, model overrides.
import { z } from 'zod';
import { ModelProfileOverrideSchema } from './model-profiles.js';

/**
 * Balances travel as JSON numbers with 5 decimals: a double keeps 15 significant digits exactly,
 * so 10 before the point is the most that still reads back to the same 0.00001.
 */
const MAX_CREDITS = 9_999_999_999;

const id = z.string().min(1, 'must be a non-empty string');

export const ChatSpecSchema = z
  .object({
    id,
    name: z.string().default(''),
    kind: z.enum(['answer', 'judge']).default('answer'),
    documents: z.array(z.string().min(1)).default([]),
  })
  .strict();

export const BoardSpecSchema = z
  .object({
    id,
    name: z.string().min(1),
    /** The owning account's `id`. */
    account: id,
    chats: z.array(ChatSpecSchema).default([]),
  })
  .strict();

export const AccountSpecSchema = z
  .object({
    id,
    name: z.string().min(1),
    key: z.string().min(8, 'must be at least 8 characters'),
    credits: z.number().nonnegative().max(MAX_CREDITS, `must be at most ${MAX_CREDITS} (kept exact to 0.00001)`),
  })
  .strict();

export const WorkspaceSpecSchema = z
  .object({
    name: z.string().optional(),
    /** The knowledge base's version (a release, a date): each run records it in run.json, and history shows it. */
    version: z.string().min(1).optional(),
    /** The folder documents must lie in (after symlinks); default: the workspace file's folder. */
    docs_root: z.string().min(1).optional(),
    accounts: z.array(AccountSpecSchema).min(1),
    boards: z.array(BoardSpecSchema).default([]),
    models: z.record(z.string(), ModelProfileOverrideSchema).default({}),
    /** What a suite that names no target asks (a CSV cannot name one): a board and one of its answer chats. */
    default_target: z.object({ board_id: id, chat_id: id }).strict().optional(),
  })
  .strict();

export type WorkspaceSpec = z.infer<typeof WorkspaceSpecSchema>;
export type ChatSpec = z.infer<typeof ChatSpecSchema>;
