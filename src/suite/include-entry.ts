// A `cases:` or `threads:` entry that names files instead of holding an item (`- file://questions.csv`,
// promptfoo's convention): the schema lets it through, the loader reads what it names (combine.ts).
import { z } from 'zod';
import { isFileReference } from './include.js';

/**
 * An item schema that also takes a `file://…` entry. Not a z.union: a union reports a bad case as
 * "Invalid input" with both options' errors; this reports the case's own errors, at its own path.
 */
export function includeOr<T extends z.ZodType>(schema: T): z.ZodType<z.output<T> | string, unknown> {
  return z.unknown().transform((value, ctx) => {
    if (isFileReference(value)) return value;
    const parsed = schema.safeParse(value, { reportInput: true });
    if (parsed.success) return parsed.data as z.output<T>;
    for (const issue of parsed.error.issues) ctx.issues.push(issue as never);
    return z.NEVER;
  });
}
