// `run --profile doctor.json`: what doctor found (the key form, the stream dialect) as run options,
// and a watcher that warns once when the run's answers say the service no longer behaves so.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { InputError } from '../domain/errors.js';
import type { Sample } from '../domain/sample.js';
import { STREAM_DIALECTS, type StreamDialect } from '../protocol/index.js';
import { describeForm } from './context.js';
import type { AuthForm } from './types.js';

const ProfileSchema = z.object({
  format: z.literal('kbbench-doctor/1'),
  checked_at: z.string(),
  base_url: z.string(),
  embedded: z.boolean(),
  dialect: z.enum(STREAM_DIALECTS).nullable(),
  auth: z.object({ auth: z.enum(['header', 'query']), header: z.string().optional() }).nullable(),
});

export interface RunProfile {
  file: string;
  checkedAt: string;
  baseUrl: string;
  embedded: boolean;
  dialect: StreamDialect | null;
  auth: AuthForm | null;
}

export function readProfile(file: string): RunProfile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const why = error instanceof SyntaxError ? 'is not JSON' : `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
    throw new InputError(`the profile ${why}; write it with kbbench doctor`, { file, field: '--profile' });
  }
  const parsed = ProfileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InputError(`not a doctor.json (kbbench doctor writes one): ${issue?.path.join('.') || 'the file'}: ${issue?.message ?? 'invalid'}`, { file, field: issue?.path.join('.') || '--profile' });
  }
  const p = parsed.data;
  if (p.auth === null && p.dialect === null) throw new InputError('the profile found neither a key form nor a stream dialect (the service was unreachable or refused the key): run kbbench doctor again', { file, field: 'auth' });
  return { file, checkedAt: p.checked_at, baseUrl: p.base_url, embedded: p.embedded, dialect: p.dialect, auth: p.auth };
}

/** The run options a profile sets; a flag given that says otherwise is refused (exit 2), never overridden. */
export interface ProfiledOptions {
  auth?: 'header' | 'query';
  apiKeyHeader?: string;
  dialect?: StreamDialect;
}

export function profileOptions(profile: RunProfile, given: { auth?: unknown; dialect?: unknown }): ProfiledOptions {
  const options: ProfiledOptions = {};
  if (profile.auth) {
    if (given.auth !== undefined && given.auth !== profile.auth.auth) {
      throw new InputError(`--auth ${String(given.auth)} contradicts the profile (${profile.auth.auth}); drop one of them`, { file: profile.file, field: '--auth' });
    }
    options.auth = profile.auth.auth;
    if (profile.auth.auth === 'header' && profile.auth.header) options.apiKeyHeader = profile.auth.header;
  }
  if (profile.dialect) {
    if (given.dialect !== undefined && given.dialect !== profile.dialect) {
      throw new InputError(`--dialect ${String(given.dialect)} contradicts the profile (${profile.dialect}); drop one of them`, { file: profile.file, field: '--dialect' });
    }
    options.dialect = profile.dialect;
  }
  return options;
}

/** The run's target against the profile's: a profile describes one service. */
export function targetWarning(profile: RunProfile, baseUrl: string | undefined): string | null {
  const same = baseUrl === undefined ? profile.embedded : !profile.embedded && sameUrl(baseUrl, profile.baseUrl);
  if (same) return null;
  const described = profile.embedded ? 'the embedded reference service' : profile.baseUrl;
  return `the profile ${profile.file} describes ${described}, this run goes to ${baseUrl ?? 'the embedded reference service'}`;
}

const sameUrl = (a: string, b: string): boolean => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/**
 * Watches the run's results: the first that the profile does not explain (the key refused in its
 * form, a stream that did not decode as its dialect) is worth one warning, not one per request.
 */
export function profileWatcher(profile: RunProfile, warn: (text: string) => void): (sample: Sample) => void {
  let warned = false;
  const since = `doctor checked it at ${profile.checkedAt}; run kbbench doctor again`;
  return (sample) => {
    if (warned) return;
    let what: string | null = null;
    if (sample.status === 401 || sample.status === 403) what = `the key was refused (HTTP ${sample.status}) in the profile's form (${profile.auth ? describeForm(profile.auth) : 'none'})`;
    else if (sample.outcome === 'stream_error' && profile.dialect) what = `a stream did not read as ${profile.dialect}: ${sample.error?.message ?? 'stream error'}`;
    if (what === null) return;
    warned = true;
    warn(`the service behaves otherwise than its profile ${profile.file}: ${what} (${since})`);
  };
}
