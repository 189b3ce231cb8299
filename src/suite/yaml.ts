// Reads a YAML suite: parse with positions, validate with zod, report every problem with its line.
import { LineCounter, parseDocument, type YAMLError } from 'yaml';
import { InputError } from '../domain/errors.js';
import type { ParsedSuite } from './parsed-suite.js';
import { semanticIssues } from './semantic.js';
import { SuiteError } from './suite-error.js';
import { YamlLocator } from './yaml-locator.js';
import { buildItems, buildSuite } from './yaml-build.js';
import { suiteFileSchema } from './yaml-schema.js';
import { parseStreamedYamlSuite } from './yaml-stream.js';
import { zodPathIssues } from './zod-issues.js';

function syntaxError(error: YAMLError, lines: LineCounter, file: string): InputError {
  const { line, col } = lines.linePos(error.pos[0]);
  // yaml appends " at line L, column C"; the location already says that.
  const message = error.message.replace(/ at line \d+, column \d+:?[\s\S]*$/, '');
  return new InputError(`YAML syntax: ${message}`, { file, line, column: col });
}

export function parseYamlDocument(text: string, file: string): { raw: unknown; locator: YamlLocator } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) throw new SuiteError(doc.errors.map((error) => syntaxError(error, lines, file)));
  try {
    return { raw: doc.toJS({ maxAliasCount: 1000 }), locator: new YamlLocator(doc, lines, file) };
  } catch (error) {
    // toJS refuses alias bombs ("excessive alias count") and unresolvable aliases.
    throw new SuiteError([new InputError(`YAML: ${(error as Error).message}`, { file, line: 1, column: 1 })]);
  }
}

export function parseYamlSuite(text: string, file: string): ParsedSuite {
  // Item by item when the file has the plain shape and is valid; else whole, for exact errors.
  return parseStreamedYamlSuite(text, file) ?? parseWholeYamlSuite(text, file);
}

/** The whole file as one Document: exact errors for any file (and the reference the split reading is tested against). */
export function parseWholeYamlSuite(text: string, file: string): ParsedSuite {
  const { raw, locator } = parseYamlDocument(text, file);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    const message = 'a suite file is a YAML map with `cases:` and/or `threads:` (see CONTRACT.md)';
    throw new SuiteError([new InputError(message, { file, line: 1, column: 1 })]);
  }
  const parsed = suiteFileSchema.safeParse(raw, { reportInput: true });
  const issues = [...(parsed.success ? [] : zodPathIssues(parsed.error)), ...semanticIssues(raw as Record<string, unknown>, (path) => locator.position(path).line)];
  if (issues.length > 0 || !parsed.success) throw new SuiteError(issues.map((issue) => locator.error(issue)));
  return buildSuite(parsed.data, locator, buildItems(parsed.data, locator));
}
