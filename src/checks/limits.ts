// Checks on what an answer cost: time to first content, total latency, credits.
import type { CheckResult } from '../domain/sample.js';
import type { CheckHandler, CheckSubject } from './types.js';

type LimitType = 'max-ttfc-ms' | 'max-latency-ms' | 'max-credits';

interface LimitRule {
  label: string;
  unit: string;
  read: (subject: CheckSubject) => number | null;
  /** Why the value can be unknown, so a failed detail says what to change. */
  unknown: string;
}

const RULES: Record<LimitType, LimitRule> = {
  'max-ttfc-ms': { label: 'ttfc', unit: ' ms', read: (s) => s.ttfc_ms, unknown: 'no content arrived' },
  'max-latency-ms': { label: 'latency', unit: ' ms', read: (s) => s.latency_ms, unknown: 'the request did not complete' },
  'max-credits': {
    label: 'credits',
    unit: '',
    read: (s) => s.credits_used,
    unknown: 'the answer reported no credits; a stream needs include_usage',
  },
};

function formatValue(value: number, unit: string): string {
  const shown = unit === ' ms' ? value.toFixed(1) : String(Number(value.toPrecision(6)));
  return `${shown}${unit}`;
}

function checkLimit(type: LimitType, limit: number, subject: CheckSubject): CheckResult {
  const rule = RULES[type];
  const value = rule.read(subject);
  const bound = `${limit}${rule.unit}`;
  if (value === null || !Number.isFinite(value)) {
    return { type, pass: false, detail: `${rule.label} unknown (${rule.unknown}); limit ${bound}` };
  }
  const pass = value <= limit;
  const shown = formatValue(value, rule.unit);
  return { type, pass, detail: pass ? `${rule.label} ${shown} ≤ ${bound}` : `${rule.label} ${shown} exceeds the limit of ${bound}` };
}

export const maxTtfcCheck: CheckHandler<'max-ttfc-ms'> = (spec, subject) => checkLimit('max-ttfc-ms', spec.value, subject);
export const maxLatencyCheck: CheckHandler<'max-latency-ms'> = (spec, subject) => checkLimit('max-latency-ms', spec.value, subject);
export const maxCreditsCheck: CheckHandler<'max-credits'> = (spec, subject) => checkLimit('max-credits', spec.value, subject);
