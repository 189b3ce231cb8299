// A promptfoo test as read from any of its sources (the config, a YAML/JSON/JSONL file, a CSV row),
// before it is multiplied by the prompts: one shape, so the cases are made one way.
import { dirname, join, relative, resolve } from 'node:path';
import { InputError } from '../../domain/errors.js';
import type { SourceLocation } from '../../domain/suite.js';

/** An assertion as written: a YAML/JSON map (promptfoo's long form), or a CSV cell. */
export type RawAssert =
  | { kind: 'map'; raw: unknown; location: SourceLocation; field: string }
  | { kind: 'cell'; text: string; location: SourceLocation; field: string };

export interface PromptfooTest {
  vars: Record<string, unknown>;
  asserts: RawAssert[];
  description?: string;
  /** The test's `threshold`: its checks' weighted score must reach it. */
  threshold?: number;
  /** `metadata` as tags (`category=technology`). */
  tags: string[];
  prefix?: string;
  suffix?: string;
  /** `metadata.conversationId`: tests sharing it are the turns of one conversation, in order. */
  conversation?: string;
  /** A CSV suite's own `id` and `prompt` columns (a promptfoo-style CSV run alone, without a config). */
  id?: string;
  prompt?: string;
  location: SourceLocation;
}

/** Collects every problem of a config with where it was written, so one run names them all. */
export class Problems {
  readonly issues: InputError[] = [];
  private readonly seen = new Set<string>();

  /** A problem once: a check or prompt read for every prompt × test would repeat it. */
  add(message: string, where: SourceLocation & { field?: string }): void {
    const issue = new InputError(message, where);
    const key = issue.describe();
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.issues.push(issue);
  }
}

/** Metadata as tags: `name=value`, each value of a list its own tag (tags cannot hold : , ; { }). */
export function metadataTags(name: string, value: unknown, where: SourceLocation & { field?: string }, problems: Problems): string[] {
  const values = Array.isArray(value) ? value : [value];
  const tags: string[] = [];
  for (const item of values) {
    if (item === null || item === undefined || (typeof item === 'string' && item.trim() === '')) continue;
    if (typeof item === 'object') {
      problems.add(`metadata "${name}" is a map; a tag is a name and a text value`, where);
      continue;
    }
    const tag = `${name}=${String(item).trim()}`;
    if (/[{}:,;]/.test(tag)) problems.add(`metadata "${tag}" cannot be a tag: a tag may not contain { } : , or ;`, where);
    else tags.push(tag);
  }
  return tags;
}

/** An included file named as the user would: relative to the including file as they wrote it. */
export function shownPath(path: string, fromFile: string): string {
  return join(dirname(fromFile), relative(dirname(resolve(fromFile)), path));
}
