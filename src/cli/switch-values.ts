// A switch written with a value (`--loop=abc`, `--stream=1`): yargs reads every such value but
// `true` as false, silently turning the switch off. Refused instead, before any command runs.
import { InputError } from '../domain/errors.js';

/** Only these two values say what yargs does with them. */
const SWITCH_VALUES = new Set(['true', 'false']);

function camelOf(name: string): string {
  return name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/**
 * Throws for the first `--name=value` in argv (before `--`) whose name is a switch of the command
 * (yargs' boolean keys, with their camelCase twins and aliases) and whose value is not true or false.
 */
export function assertSwitchValues(argv: readonly string[], switches: readonly string[], aliases: Readonly<Record<string, readonly string[]>> = {}): void {
  const names = new Set<string>();
  for (const key of switches) for (const name of [key, ...(aliases[key] ?? [])]) names.add(camelOf(name));
  for (const token of argv) {
    if (token === '--') return;
    const match = /^--([^=]+)=(.*)$/s.exec(token);
    if (match === null) continue;
    const [, name, value] = match as unknown as [string, string, string];
    // `--no-stream=1`: a negated switch with a value (yargs would call --no-stream an unknown flag).
    if (name.startsWith('no-') && names.has(camelOf(name.slice(3)))) {
      throw new InputError(`is a switch: write --${name} alone, not --${name}=${value}`, { field: `--${name}` });
    }
    if (!names.has(camelOf(name)) || SWITCH_VALUES.has(value)) continue;
    throw new InputError(`is a switch: write --${name} alone (or --no-${name} to turn it off), not --${name}=${value}`, { field: `--${name}` });
  }
}
