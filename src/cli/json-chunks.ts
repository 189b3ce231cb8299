// JSON.stringify(value, null, 2), written in pieces: a plan of 200k requests is ~50 MB of JSON,
// and the whole text, its redacted copy and its encoded copy were alive at once (issue 20 item 18).
const INDENT = '  ';

/** A top-level value written element by element: an array, or any other iterable (a generator's pass over the plan). */
function asList(v: unknown): Iterable<unknown> | null {
  if (Array.isArray(v)) return v;
  if (v !== null && typeof v === 'object' && typeof (v as Iterable<unknown>)[Symbol.iterator] === 'function') return v as Iterable<unknown>;
  return null;
}

/**
 * The text of JSON.stringify(value, null, 2) in pieces of whole lines (no trailing newline), about
 * `linesPer` lines each. A top-level value that is an iterable but not an array (e.g. a generator
 * of the plan's requests) is written as an array, one element at a time, never held whole.
 */
export function* jsonChunks(value: Record<string, unknown>, linesPer = 2000): Generator<string> {
  // A list is always written; other values only when JSON has a text for them (not undefined, not a function).
  const entries = Object.entries(value).filter(([, v]) => asList(v) !== null || JSON.stringify(v) !== undefined);
  if (entries.length === 0) {
    yield '{}';
    return;
  }
  let pending: string[] = ['{'];
  const flush = function* (force: boolean): Generator<string> {
    if (pending.length >= linesPer || (force && pending.length > 0)) {
      yield pending.join('\n');
      pending = [];
    }
  };
  const nested = (v: unknown, depth: string): string => JSON.stringify(v, null, 2).replace(/\n/g, `\n${depth}`);
  for (let index = 0; index < entries.length; index += 1) {
    const [k, v] = entries[index]!;
    const comma = index < entries.length - 1 ? ',' : '';
    const head = `${INDENT}${JSON.stringify(k)}: `;
    const list = asList(v);
    if (list === null) {
      pending.push(`${head}${nested(v, INDENT)}${comma}`);
      yield* flush(false);
      continue;
    }
    const iterator = list[Symbol.iterator]();
    let next = iterator.next();
    if (next.done) {
      pending.push(`${head}[]${comma}`);
      yield* flush(false);
      continue;
    }
    pending.push(`${head}[`);
    while (!next.done) {
      // An element JSON cannot write (undefined, a function) is null inside an array, as JSON.stringify does.
      const element = JSON.stringify(next.value) === undefined ? null : next.value;
      next = iterator.next();
      pending.push(`${INDENT}${INDENT}${nested(element, INDENT + INDENT)}${next.done ? '' : ','}`);
      yield* flush(false);
    }
    pending.push(`${INDENT}]${comma}`);
    yield* flush(false);
  }
  pending.push('}');
  yield* flush(true);
}
