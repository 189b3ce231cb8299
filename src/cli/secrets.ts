// The API key: from KBBENCH_API_KEY or --api-key-file, never a flag value. Redaction is
// client/redact.ts's (the one redactor); this file only reads the key and words the warning.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { InputError } from '../domain/errors.js';
import { createRedactor, MIN_REDACTED_SECRET_CHARS, unredactableSecrets } from '../client/redact.js';
import type { CliIo } from './io.js';

/** A key file holds one key: anything longer than this is not one (a link to /dev/zero, a wrong file). */
export const MAX_KEY_FILE_BYTES = 4096;

/** Reads at most MAX_KEY_FILE_BYTES (+1, to see there is more); works for pipes and `<(…)` too. */
function readKeyFile(path: string, field = '--api-key-file'): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(MAX_KEY_FILE_BYTES + 1);
    let total = 0;
    for (let n = 1; n > 0 && total < buffer.length; total += n) n = readSync(fd, buffer, total, buffer.length - total, null);
    if (total > MAX_KEY_FILE_BYTES) {
      throw new InputError(`the API key file is larger than the limit of ${MAX_KEY_FILE_BYTES} bytes; it should hold the key alone`, { file: path, field });
    }
    return buffer.subarray(0, total).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

export function readApiKey(env: NodeJS.ProcessEnv, keyFile: string | undefined): string | undefined {
  if (keyFile !== undefined) {
    try {
      const key = readKeyFile(keyFile).trim();
      if (!key) throw new InputError('the API key file is empty', { file: keyFile, field: '--api-key-file' });
      return key;
    } catch (error) {
      if (error instanceof InputError) throw error;
      throw new InputError(`cannot read the API key file (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { file: keyFile, field: '--api-key-file' });
    }
  }
  const fromEnv = env.KBBENCH_API_KEY?.trim();
  return fromEnv ? fromEnv : undefined;
}

/** The one warning for a key too short to be redacted (said once per command, never the key itself). */
export function shortKeyWarning(secrets: readonly (string | undefined)[]): string | undefined {
  if (unredactableSecrets(secrets).length === 0) return undefined;
  return `warning: the API key is shorter than ${MIN_REDACTED_SECRET_CHARS} characters, so it cannot be redacted from output (it would alter ordinary text); use a real key`;
}

/**
 * As ssh warns of a private key others can read: a key file readable by its group or by anyone
 * (mode 644) gets a warning. Only a regular file's mode says anything (a pipe's does not).
 */
export function keyFileModeWarning(keyFile: string | undefined): string | undefined {
  if (keyFile === undefined) return undefined;
  try {
    const info = statSync(keyFile);
    if (!info.isFile() || (info.mode & 0o044) === 0) return undefined;
    return `warning: the API key file ${keyFile} is readable by others (mode ${(info.mode & 0o777).toString(8)}); restrict it with chmod 600 ${keyFile}`;
  } catch {
    return undefined;
  }
}

/** An outside grader's key: KBBENCH_GRADER_API_KEY or --grader-key-file, never a flag value. */
export function readGraderKey(env: NodeJS.ProcessEnv, keyFile: string | undefined): string | undefined {
  if (keyFile !== undefined) {
    try {
      const key = readKeyFile(keyFile, '--grader-key-file').trim();
      if (!key) throw new InputError('the grader key file is empty', { file: keyFile, field: '--grader-key-file' });
      return key;
    } catch (error) {
      if (error instanceof InputError) throw error;
      throw new InputError(`cannot read the grader key file (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { file: keyFile, field: '--grader-key-file' });
    }
  }
  const fromEnv = env.KBBENCH_GRADER_API_KEY?.trim();
  return fromEnv ? fromEnv : undefined;
}

/**
 * The key of a command that talks to a service it was given (boards, chats, doctor): required,
 * redacted from everything printed from now on, and warned of when short or readable by others.
 */
export function requireApiKey(io: CliIo, keyFile: string | undefined): string {
  const apiKey = readApiKey(io.env, keyFile);
  if (!apiKey) throw new InputError('set KBBENCH_API_KEY or pass --api-key-file PATH', { field: 'KBBENCH_API_KEY' });
  io.setRedact(createRedactor([apiKey]));
  for (const warning of [shortKeyWarning([apiKey]), keyFileModeWarning(keyFile)]) if (warning) io.err(warning);
  return apiKey;
}
