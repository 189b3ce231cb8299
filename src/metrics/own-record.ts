// Records keyed by names read from result lines (models, error kinds): own properties only.

/**
 * A model is whatever a suite or a results file says, so `constructor` or `__proto__` must be an
 * ordinary name. `record[name]` would find Object.prototype's members, and `record[name] = v`
 * with `__proto__` would replace the record's prototype (or, through `??=`, let later writes
 * land on Object.prototype itself, polluting every object of the process).
 */
export function getOwn<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Defines `key` as an own, enumerable data property (JSON and Object.entries see it), even `__proto__`. */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): T {
  Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
  return value;
}
