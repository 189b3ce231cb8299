// summary.json's numbers rounded to their unit: credits to the service's 1e-5, milliseconds to 1e-3 (no 0.022234499999999997).

/** Keys whose numbers are not in the unit of the object around them (p-values, counts). */
const UNITLESS = new Set(['p_value', 'p_adjusted', 'smallest_p', 'requests', 'passed', 'count', 'questions', 'answers', 'clusters_needed', 'rate', 'pass_rate']);

type Unit = 'credits' | 'ms' | null;

/** The unit a key names, or its parent's: `credits_used`, `tag_credits` → credits; `ttfc_ms`, `duration_ms` → ms. */
function unitOf(key: string, parent: Unit): Unit {
  if (UNITLESS.has(key)) return null;
  if (/credits/.test(key)) return 'credits';
  if (/(^|_)ms($|_)/.test(key)) return 'ms';
  return parent;
}

const DIGITS: Record<Exclude<Unit, null>, number> = { credits: 5, ms: 3 };

function round(value: number, unit: Unit): number {
  if (unit === null || !Number.isFinite(value) || Number.isInteger(value)) return value;
  return Number(value.toFixed(DIGITS[unit]));
}

/** A deep copy with every number under a credits or ms key rounded to its unit. */
export function roundToUnits<T>(value: T, unit: Unit = null): T {
  if (typeof value === 'number') return round(value, unit) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => roundToUnits(v, unit)) as T;
  if (value === null || typeof value !== 'object') return value;
  // fromEntries defines own properties: a model or case named `__proto__` stays a key, never the prototype.
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, v]) => [key, roundToUnits(v, unitOf(key, unit))])) as T;
}
