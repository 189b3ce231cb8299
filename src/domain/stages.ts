// The text forms of a load shape, read the same from a flag and from a suite's `load:` block:
// durations (`30s`, `2m`, `500ms`, a bare number of seconds) and stages (`30s:5,1m:20,30s:0`).
import { InputError } from './errors.js';

export interface LoadStage {
  durationMs: number;
  targetPerS: number;
}

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `120s`, `2m`, `500ms`, `1.5h`; a bare number is seconds; null when the text is none of these. */
export function durationMsOf(text: string): number | null {
  const match = DURATION.exec(text.trim());
  return match ? Number(match[1]) * UNIT_MS[match[2] ?? 's']! : null;
}

/** `30s:5,1m:20,30s:0` → stages (duration:target rate); `parseDuration` turns `30s` into ms. */
export function parseStages(text: string, parseDuration: (value: string) => number, flag = '--stages'): LoadStage[] {
  const parts = text.split(',').map((p) => p.trim()).filter(Boolean);
  if (parts.length === 0) throw new InputError('empty: write duration:target pairs, e.g. 30s:5,1m:20,30s:0', { field: flag });
  return parts.map((part) => {
    const [duration, target, extra] = part.split(':');
    const targetPerS = Number(target);
    if (duration === undefined || target === undefined || extra !== undefined || target.trim() === '' || !Number.isFinite(targetPerS) || targetPerS < 0) {
      throw new InputError(`"${part}" is not duration:target (a duration and a number ≥ 0), e.g. 1m:20`, { field: flag });
    }
    const durationMs = parseDuration(duration.trim());
    if (!(durationMs > 0)) throw new InputError(`"${part}" has a zero duration`, { field: flag });
    return { durationMs, targetPerS };
  });
}
