// Options of the reference service (also the JSON the child process takes), with their defaults.
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { STREAM_DIALECTS } from '../protocol/index.js';

const rate = z.number().min(0).max(1);

export const ServiceOptionsSchema = z
  .object({
    host: z.string().min(1).default('127.0.0.1'),
    /** 0 = a free port. */
    port: z.number().int().min(0).max(65535).default(0),
    /** Defaults to the demo workspace shipped in suites/demo/. */
    workspacePath: z.string().min(1).optional(),
    seed: z.number().int().default(1),
    dialect: z.enum(STREAM_DIALECTS).default('ui-sse'),
    /** Multiplies every modelled delay; 0 answers at once. Fault stalls are not scaled. */
    latencyScale: z.number().min(0).default(1),
    crlf: z.boolean().default(false),
    splitWrites: z.boolean().default(false),
    maxBodyBytes: z.number().int().positive().default(1024 * 1024),
    /** Answer requests beyond this many at once get 429; 0 = no limit. */
    maxInFlight: z.number().int().min(0).default(0),
    /** SSE keep-alive comment interval while an answer is pending. */
    pingIntervalMs: z.number().positive().default(5000),
    faultRate: rate.default(0),
    /** Share of judge-chat answers that fail (500) or babble (no verdict), half each: graders that cannot judge. */
    judgeFaultRate: rate.default(0),
    rateLimitRate: rate.default(0),
    retryAfterS: z.number().int().min(0).default(1),
    stallMs: z.number().min(0).default(10_000),
    stallRate: rate.default(0),
    cutRate: rate.default(0),
    html502Rate: rate.default(0),
    /** Generation slots per model, replacing every model profile's `slots`; 0 = unlimited. */
    slots: z.number().int().min(0).optional(),
    /** Requests waiting per model, replacing every model profile's `queueLimit`. */
    queueLimit: z.number().int().min(0).optional(),
    /** The status a request finding its model's queue full gets (both with Retry-After). */
    overloadStatus: z.union([z.literal(429), z.literal(503)]).default(429),
    /** Requests that had to queue answer from a smaller retrieval budget (fewer passages). */
    degradeQuality: z.boolean().default(false),
    /** Service-wide pause fault: every pauseEveryMs, everything waits pauseForMs (0 = off). Not scaled. */
    pauseEveryMs: z.number().min(0).default(0),
    pauseForMs: z.number().min(0).default(0),
    /** Add credits_remaining to the usage chunk of streamed answers (the documented chunk has credits_used alone). */
    usageRemaining: z.boolean().default(false),
  })
  .strict()
  .refine((o) => o.pauseForMs === 0 || o.pauseForMs < o.pauseEveryMs, {
    message: 'a pause must be shorter than its period (--pause-every), or the service would never answer',
    path: ['pauseForMs'],
  });

/** Options as callers write them (every field optional). */
export type ServiceOptions = z.input<typeof ServiceOptionsSchema>;
/** Options with defaults applied. */
export type ResolvedServiceOptions = z.output<typeof ServiceOptionsSchema> & { workspacePath: string };

/** The demo workspace: src/server and dist/server both sit two folders below the package root. */
export const DEMO_WORKSPACE_PATH = fileURLToPath(new URL('../../suites/demo/workspace.yaml', import.meta.url));

/** Invalid options; `field` names the offending option. */
export class ServiceOptionsError extends Error {
  readonly code = 'SERVICE_OPTIONS_INVALID';
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`invalid service option ${field}: ${reason}`);
    this.name = 'ServiceOptionsError';
  }
}

export function resolveServiceOptions(options: unknown = {}): ResolvedServiceOptions {
  const parsed = ServiceOptionsSchema.safeParse(options ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ServiceOptionsError(issue?.path.map(String).join('.') || '(options)', issue?.message ?? 'invalid');
  }
  return { ...parsed.data, workspacePath: parsed.data.workspacePath ?? DEMO_WORKSPACE_PATH };
}
