// The one rule for a credit value a service reports (in a JSON answer or a usage chunk): a finite
// number, at least 0, at most MAX_CREDIT_VALUE. Anything else (-5, 1e308, null, NaN) is not
// believed: the answer is kept, its credits are marked invalid with the value seen, and the budget
// counts it at its model's worst case (as an answer of unknown cost).

/** The largest value kept exact in 1e-5 units (credits/units.ts), as the reference service's balances. */
export const MAX_CREDIT_VALUE = 9_999_999_999;

export interface CreditReading {
  creditsUsed: number | null;
  creditsRemaining: number | null;
  /** What was wrong, with the value seen, e.g. `credits_used -5`; null when both values are good. */
  invalid: string | null;
}

function isCreditValue(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= MAX_CREDIT_VALUE;
}

/** A string that reads as a number (`0.1`, `NaN`, `-Infinity`): shown as it is. */
const NUMBER_LIKE = /^[-+]?(?:NaN|Infinity|\d[\d.eE+-]{0,38})$/;

/**
 * The value seen, for credits_invalid. Only number-like values are shown: any other text came from
 * outside and may be anything (a service echoing the API key there, say), so its kind and length are
 * said instead, and nothing of it reaches results.ndjson.
 */
function shown(value: unknown): string {
  if (value === undefined) return 'missing';
  if (typeof value === 'string') return NUMBER_LIKE.test(value) ? value : `a string of ${value.length} characters`;
  if (Array.isArray(value)) return 'an array';
  if (value !== null && typeof value === 'object') return 'an object';
  return String(value).slice(0, 40);
}

/** `remaining` may be absent (a usage chunk need not say it); `used` must be a credit value. */
export function readCredits(used: unknown, remaining: unknown): CreditReading {
  const problems: string[] = [];
  if (!isCreditValue(used)) problems.push(`credits_used ${shown(used)}`);
  const remainingOk = remaining === undefined || isCreditValue(remaining);
  if (!remainingOk) problems.push(`credits_remaining ${shown(remaining)}`);
  return {
    creditsUsed: isCreditValue(used) ? used : null,
    creditsRemaining: isCreditValue(remaining) ? remaining : null,
    invalid: problems.length ? problems.join(', ') : null,
  };
}

/**
 * JSON.parse, except that bare NaN / Infinity / -Infinity (which some services print for a number)
 * are read as strings, so the credit rule above judges them instead of the whole answer being lost.
 * Only tried after a strict parse failed: a valid body never pays for it.
 */
export function parseJsonLenient(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch (error) {
    const quoted = raw.replace(/([:[,]\s*)(-?Infinity|NaN)(?=\s*[,}\]])/g, '$1"$2"');
    if (quoted === raw) throw error;
    return JSON.parse(quoted);
  }
}
