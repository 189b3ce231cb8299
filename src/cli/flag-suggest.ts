// Did-you-mean for a mistyped flag: yargs' strict mode names the unknown one; this names the near known one.
import { didYouMean } from '../suite/suite-error.js';

const UNKNOWN = /^Unknown arguments?: (.+)$/;

/** The flags a command accepts, as yargs lists them (camelCase twins and one-letter aliases left out). */
export function knownFlags(keys: readonly string[]): string[] {
  return keys.filter((key) => key.length > 1 && !/[A-Z]/.test(key) && key !== '$0' && key !== '_');
}

/**
 * `Unknown argument: concurency` → `unknown flag --concurency (did you mean "--concurrency"?)`;
 * any other yargs message comes back unchanged.
 */
export function withFlagSuggestions(message: string, known: readonly string[]): string {
  const match = UNKNOWN.exec(message.trim());
  if (!match) return message;
  const names = match[1]!.split(',').map((name) => name.trim()).filter(Boolean);
  const flags = known.map((key) => `--${key}`);
  return names
    .map((name) => {
      // A bare word is a stray positional argument, not a flag.
      const written = name.startsWith('-') ? name : name.includes(' ') || !/^[\w-]+$/.test(name) ? name : `--${name}`;
      const hint = written.startsWith('--') ? didYouMean(written, flags) : '';
      return `unknown flag ${written}${hint}`;
    })
    .join('\n');
}
