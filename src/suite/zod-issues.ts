// Turns zod issues into plain-language messages and path issues.
import type { z } from 'zod';
import type { PathIssue } from './suite-error.js';

const EXPECTED: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a map of keys and values',
  record: 'a map of keys and values',
};

/** How a value reads in a message: `the text "yes"`, `the number 3`, `empty`. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'nothing (the value is empty)';
  if (typeof value === 'string') return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return 'a list';
  return 'a map';
}

export function issueMessage(issue: z.core.$ZodIssue): string {
  // Schemas in this package give their own messages; only zod's generic ones are reworded.
  if (issue.code === 'invalid_type' && issue.message.startsWith('Invalid input')) {
    if (!('input' in issue) || issue.input === undefined) return 'is required';
    return `must be ${EXPECTED[issue.expected] ?? issue.expected}, found ${describeValue(issue.input)}`;
  }
  if (issue.code === 'invalid_value' && issue.message.startsWith('Invalid')) {
    return `must be one of ${issue.values.map((v) => String(v)).join(', ')}`;
  }
  return issue.message;
}

/** zod's issues as path issues; an unknown key points at the key itself. */
export function zodPathIssues(error: z.ZodError, prefix: readonly PropertyKey[] = []): PathIssue[] {
  return error.issues.map((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys' && issue.keys[0] !== undefined) {
      return { path, key: issue.keys[0], message: issue.message };
    }
    const key: unknown = issue.code === 'custom' ? issue.params?.key : undefined;
    if (typeof key === 'string') return { path, key, message: issue.message };
    return { path, message: issueMessage(issue) };
  });
}
