// The API key: from KBBENCH_API_KEY or --api-key-file, never a flag value; and the redactor for output.
import { readFileSync } from 'node:fs';
import { InputError } from '../domain/errors.js';

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

/** Replaces every occurrence of the secrets in a text: the last line of defence before output. */
export function redactor(secrets: (string | undefined)[]): (text: string) => string {
  const list = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 4);
  if (list.length === 0) return (text) => text;
  return (text) => list.reduce((acc, secret) => acc.split(secret).join('[redacted]'), text);
}
