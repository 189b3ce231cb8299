// Finds where a path of a parsed YAML document was written, so errors name line and column.
import { isMap, isSeq, isScalar, type Document, type LineCounter, type Node, type Pair } from 'yaml';
import { InputError } from '../domain/errors.js';
import type { SourceLocation } from '../domain/suite.js';
import { formatField, type PathIssue } from './suite-error.js';

type Position = { line: number; column: number };

function keyName(pair: Pair<unknown, unknown>): string | undefined {
  return isScalar(pair.key) ? String(pair.key.value) : undefined;
}

function hasRange(node: unknown): node is Node & { range: [number, number, number] } {
  return typeof node === 'object' && node !== null && Array.isArray((node as Node).range);
}

export class YamlLocator {
  constructor(
    private readonly doc: Document,
    private readonly lines: LineCounter,
    private readonly file: string,
  ) {}

  /** The deepest node the path reaches: a missing key points at the map that lacks it. */
  private nodeAt(path: readonly PropertyKey[], key?: string): unknown {
    let node: unknown = this.doc.contents;
    let found: unknown = node;
    for (const segment of key === undefined ? path : [...path, key]) {
      let next: unknown;
      if (isMap(node)) {
        const pair = node.items.find((item) => keyName(item) === String(segment));
        // Unknown keys are located at the key; others at their value (or the key if it has none).
        next = pair && (segment === key || !hasRange(pair.value) ? pair.key : pair.value);
      } else if (isSeq(node)) {
        next = typeof segment === 'number' ? node.items[segment] : undefined;
      }
      if (!hasRange(next)) break;
      node = next;
      found = next;
    }
    return found;
  }

  position(path: readonly PropertyKey[], key?: string): Position {
    const node = this.nodeAt(path, key);
    const offset = hasRange(node) ? node.range[0] : 0;
    const { line, col } = this.lines.linePos(offset);
    return { line, column: col };
  }

  location(path: readonly PropertyKey[]): SourceLocation {
    const { line, column } = this.position(path);
    // A literal of three fields: a spread gave every item's location a second, out-of-object property store.
    return { file: this.file, line, column };
  }

  error(issue: PathIssue): InputError {
    const field = formatField(issue.key === undefined ? issue.path : [...issue.path, issue.key]);
    return new InputError(issue.message, { file: this.file, ...this.position(issue.path, issue.key), ...(field ? { field } : {}) });
  }

  /** `file:line:col field: message` for a warning at a path. */
  warning(path: readonly PropertyKey[], message: string): string {
    return this.error({ path, message }).describe();
  }
}
