// JSON.stringify(value, null, 2), written in pieces: a plan of 200k requests is ~50 MB of JSON,
// and the whole text, its redacted copy and its encoded copy were alive at once (issue 20 item 18).
const INDENT = '  ';

/** The text of JSON.stringify(value, null, 2) in pieces of whole lines (no trailing newline), about `linesPer` lines each. */
export function* jsonChunks(value: Record<string, unknown>, linesPer = 2000): Generator<string> {
  const entries = Object.entries(value).filter(([, v]) => JSON.stringify(v) !== undefined);
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
  for (const [k, index] of entries.map(([key], i) => [key, i] as const)) {
    const v = value[k];
    const comma = index < entries.length - 1 ? ',' : '';
    const head = `${INDENT}${JSON.stringify(k)}: `;
    if (Array.isArray(v) && v.length > 0) {
      pending.push(`${head}[`);
      for (let i = 0; i < v.length; i += 1) {
        // An element JSON cannot write (undefined, a function) is null inside an array, as JSON.stringify does.
        const element = JSON.stringify(v[i]) === undefined ? null : v[i];
        pending.push(`${INDENT}${INDENT}${nested(element, INDENT + INDENT)}${i < v.length - 1 ? ',' : ''}`);
        yield* flush(false);
      }
      pending.push(`${INDENT}]${comma}`);
    } else pending.push(`${head}${nested(v, INDENT)}${comma}`);
    yield* flush(false);
  }
  pending.push('}');
  yield* flush(true);
}
