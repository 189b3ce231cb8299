// Runs every probe in order within the request and credit bound, and builds doctor.json's report.
import { DoctorContext, NotTested, round5, type DoctorTarget } from './context.js';
import { PROBES } from './probes.js';
import { PROBE_NAMES, type AuthForm, type DoctorReport, type DoctorVerdict, type ProbeOutcome, type ProbeRow } from './types.js';
import type { StreamDialect } from '../protocol/index.js';

export interface DoctorOptions extends DoctorTarget {
  embedded: boolean;
  toolVersion: string;
  /** ISO time of the check (the caller's wall clock). */
  checkedAt: string;
}

const AUTH_FORM_PROBES = ['auth.header_x_api_key', 'auth.query', 'auth.header_api_key'] as const;

async function runProbe(ctx: DoctorContext, name: (typeof PROBE_NAMES)[number]): Promise<ProbeOutcome> {
  try {
    return await PROBES[name].run(ctx);
  } catch (error) {
    if (error instanceof NotTested) return { status: 'not_tested', observed: error.message };
    throw error;
  }
}

/** No key form reached the service (unreachable), or every form was refused (the key rejected): nothing more to ask. */
function unreachableWhy(rows: ProbeRow[], ctx: DoctorContext): string | null {
  if (ctx.form) return null;
  const forms = rows.filter((r) => (AUTH_FORM_PROBES as readonly string[]).includes(r.probe));
  if (forms.length < AUTH_FORM_PROBES.length) return null;
  return forms.every((r) => /E_CONNECTION|E_TIMEOUT/.test(r.observed)) ? 'the service did not answer' : 'the key was refused in every form';
}

/** `run`'s flags for what was found; an api_key header alone has no flag (`run --profile` applies it). */
export function suggestedFlags(auth: AuthForm | null, dialect: StreamDialect | null): string[] {
  const flags: string[] = [];
  if (auth) flags.push('--auth', auth.auth);
  if (dialect) flags.push('--dialect', dialect);
  return flags;
}

function verdictOf(rows: ProbeRow[], unreachable: boolean, stopped: boolean): DoctorVerdict {
  if (unreachable) return 'unreachable';
  if (rows.some((r) => r.status === 'differs')) return 'differs';
  return stopped ? 'incomplete' : 'conforms';
}

export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const ctx = new DoctorContext(options);
  const rows: ProbeRow[] = [];
  // Set once no key form reached the service: every probe after it is not tested, for that reason.
  let unreachable: string | null = null;
  try {
    for (const name of PROBE_NAMES) {
      const outcome: ProbeOutcome = unreachable !== null ? { status: 'not_tested', observed: unreachable } : await runProbe(ctx, name);
      rows.push({ probe: name, documented: PROBES[name].documented, ...outcome });
      unreachable ??= unreachableWhy(rows, ctx);
    }
  } finally {
    await ctx.close();
  }
  const stopped = unreachable ?? ctx.stoppedBy;
  const dialect = ctx.dialect;
  return {
    format: 'kbbench-doctor/1',
    tool_version: options.toolVersion,
    checked_at: options.checkedAt,
    base_url: options.baseUrl,
    embedded: options.embedded,
    target: await targetOf(ctx),
    verdict: verdictOf(rows, unreachable !== null, stopped !== undefined),
    dialect,
    auth: ctx.form,
    suggested_flags: suggestedFlags(ctx.form, dialect),
    requests_sent: ctx.requests,
    credits_spent: round5(ctx.creditsSpent),
    max_credits: options.maxCredits,
    ...(stopped !== undefined ? { stopped } : {}),
    rows,
  };
}

async function targetOf(ctx: DoctorContext): Promise<DoctorReport['target']> {
  if (!ctx.has('target')) return { board_id: ctx.target.boardId ?? null, chat_id: ctx.target.chatId ?? null };
  try {
    const { boardId, chatId } = await ctx.askTarget();
    return { board_id: boardId, chat_id: chatId };
  } catch {
    return { board_id: ctx.target.boardId ?? null, chat_id: ctx.target.chatId ?? null };
  }
}
