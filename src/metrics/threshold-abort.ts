// k6's object form of a threshold: `{ threshold: 'p(95)<2000', abortOnFail: true, delayAbortEval: '10s' }`
// in a suite, and `--threshold 'ttfc_ms=p(95)<2000;abortOnFail;delayAbortEval=10s'` on the command line.
import { InputError } from '../domain/errors.js';
import { parseThresholdFlag } from './threshold-parser.js';

import type { ThresholdAbort } from '../domain/suite.js';

export type { ThresholdAbort };

/** A threshold entry as a suite may write it: the expression alone, or k6's object form. */
export type ThresholdEntry = string | { threshold: string; abortOnFail?: boolean; delayAbortEval?: string | number };

const DELAY = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `10s`, `1m`, `500ms`; a bare number is seconds (as --duration). */
export function parseDelayMs(value: string | number, field: string): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value * 1000;
  const match = DELAY.exec(String(value).trim());
  if (!match) throw new InputError(`delayAbortEval "${value}": expected a duration like 10s or 1m`, { field });
  return Number(match[1]) * UNIT_MS[match[2] ?? 's']!;
}

/** Splits a suite's entries into expressions (every threshold) and the ones that abort. */
export function splitThresholdEntries(thresholds: Record<string, readonly ThresholdEntry[]>): { expressions: Record<string, string[]>; aborts: ThresholdAbort[] } {
  const expressions: Record<string, string[]> = {};
  const aborts: ThresholdAbort[] = [];
  for (const [key, entries] of Object.entries(thresholds)) {
    expressions[key] = entries.map((entry) => {
      if (typeof entry === 'string') return entry;
      if (entry.abortOnFail === true) {
        aborts.push({ key: key.trim(), expression: entry.threshold.trim(), delay_abort_eval_ms: entry.delayAbortEval === undefined ? 0 : parseDelayMs(entry.delayAbortEval, `thresholds.${key}`) });
      }
      return entry.threshold;
    });
  }
  return { expressions, aborts };
}

/** `--threshold 'metric=expression[;abortOnFail][;delayAbortEval=10s]'`. */
export function parseThresholdFlagEntry(flag: string): { key: string; expression: string; abort: ThresholdAbort | null } {
  const [head = '', ...options] = flag.split(';');
  const { key, expression } = parseThresholdFlag(head);
  let abortOnFail = false;
  let delayMs = 0;
  for (const raw of options) {
    const option = raw.trim();
    if (option === 'abortOnFail') abortOnFail = true;
    else if (option.startsWith('delayAbortEval=')) delayMs = parseDelayMs(option.slice('delayAbortEval='.length), '--threshold');
    else throw new InputError(`--threshold "${flag}": unknown option "${option}" (known: abortOnFail, delayAbortEval=10s)`, { field: '--threshold' });
  }
  if (delayMs > 0 && !abortOnFail) throw new InputError(`--threshold "${flag}": delayAbortEval goes with abortOnFail`, { field: '--threshold' });
  return { key, expression, abort: abortOnFail ? { key, expression, delay_abort_eval_ms: delayMs } : null };
}
