// The API key: from KBBENCH_API_KEY or --api-key-file, never a flag value. Redaction is
// client/redact.ts's (the one redactor); this file only reads the key and words the warning.
import { readFileSync } from 'node:fs';
import { InputError } from '../domain/errors.js';
import { MIN_REDACTED_SECRET_CHARS, unredactableSecrets } from '../client/redact.js';

export function readApiKey(env: NodeJS.ProcessEnv, keyFile: string | undefined): string | undefined {
  if (keyFile !== undefined) {
    try {
      const key = readFileSync(keyFile, 'utf8').trim();
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
