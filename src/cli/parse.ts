// Flag value parsers: durations, lists, numbers. Each names the flag it read in its error.
import { InputError } from '../domain/errors.js';
import { durationMsOf } from '../domain/stages.js';

/** `120s`, `2m`, `500ms`, `1.5h`; a bare number is seconds. */
export function parseDurationMs(value: string | number, flag: string): number {
  if (typeof value === 'number') return value * 1000;
  const ms = durationMsOf(value);
  if (ms === null) throw new InputError(`expected a duration like 30s, 2m or 500ms, got "${value}"`, { field: `--${flag}` });
  return ms;
}

export function parseList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const parts = Array.isArray(value) ? value : [value];
  return parts.flatMap((p) => p.split(',')).map((p) => p.trim()).filter(Boolean);
}

export function positive(value: number | undefined, flag: string, { integer = false, allowZero = false } = {}): number | undefined {
  if (value === undefined) return undefined;
  const ok = Number.isFinite(value) && (allowZero ? value >= 0 : value > 0) && (!integer || Number.isInteger(value));
  if (!ok) throw new InputError(`expected a ${integer ? 'whole ' : ''}number ${allowZero ? '>= 0' : '> 0'}, got ${value}`, { field: `--${flag}` });
  return value;
}

/** A percentage (`10%`) or a fraction (`0.1`). */
export function parseFraction(value: string | number | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  const n = text.endsWith('%') ? Number(text.slice(0, -1)) / 100 : Number(text);
  if (!Number.isFinite(n) || n < 0) throw new InputError(`expected a percentage like 10% or a fraction like 0.1, got "${value}"`, { field: `--${flag}` });
  return n;
}
