// Where a JSON object or array found inside free text ends: one scanner for the JSON checks
// (contains-json) and the grader's reply (its own verdict object), so both skip strings alike.

/** Where the bracket opened at `from` closes (strings skipped), or -1. */
export function closingOf(text: string, from: number): number {
  let depth = 0;
  let inString = false;
  for (let i = from; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth += 1;
    else if (c === '}' || c === ']') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return -1;
}
