// The doctor's shapes: a probe's row (documented against observed), the report doctor.json holds.
import type { StreamDialect } from '../protocol/index.js';

export const PROBE_NAMES = [
  'auth.header_x_api_key',
  'auth.query',
  'auth.header_api_key',
  'auth.missing_key',
  'auth.wrong_key',
  'listing.boards',
  'listing.chats',
  'ask.post',
  'ask.get',
  'ask.additional_context',
  'ask.plaintext',
  'stream.dialect',
  'stream.first_chunk',
  'stream.finish',
  'stream.usage',
  'threads.create',
  'threads.continue',
  'threads.save_history',
  'threads.unknown_conversation',
  'errors.unknown_board',
  'errors.unknown_chat',
  'errors.validation',
  'errors.unknown_model',
  'credits.decimals',
  'credits.remaining',
  'credits.per_model',
] as const;
export type ProbeName = (typeof PROBE_NAMES)[number];

export type ProbeStatus = 'conforms' | 'differs' | 'not_tested';

/** What one probe found; `observed` is what was seen, or why nothing was. */
export interface ProbeOutcome {
  status: ProbeStatus;
  observed: string;
}

export interface ProbeRow extends ProbeOutcome {
  probe: ProbeName;
  documented: string;
}

/** How the key goes: the form doctor found accepted, in `run`'s words (--auth, and the header's name). */
export interface AuthForm {
  auth: 'header' | 'query';
  /** With `auth: header`: the header's name. */
  header?: string;
}

/** `conforms`: all tested conform; `incomplete`: nothing differs but --max-credits stopped it; `unreachable`: no service or no key it takes. */
export type DoctorVerdict = 'conforms' | 'differs' | 'incomplete' | 'unreachable';

export interface DoctorReport {
  format: 'kbbench-doctor/1';
  tool_version: string;
  /** When it ran (ISO): a profile is a snapshot of a service that may change. */
  checked_at: string;
  base_url: string;
  /** True when doctor ran against the embedded reference service (no --base-url). */
  embedded: boolean;
  target: { board_id: string | null; chat_id: string | null };
  verdict: DoctorVerdict;
  /** The stream dialect detected, null when no stream was seen. */
  dialect: StreamDialect | null;
  /** The key form the service accepted (the first of x-api-key header, api_key header, api_key query), null when none. */
  auth: AuthForm | null;
  /** The `run` flags that say the same as this report (`run --profile doctor.json` applies them). */
  suggested_flags: string[];
  requests_sent: number;
  credits_spent: number;
  max_credits: number;
  /** Why the probes stopped early (the credit bound, an unreachable service), when they did. */
  stopped?: string;
  rows: ProbeRow[];
}
