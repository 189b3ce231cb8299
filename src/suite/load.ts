// Loads a suite file by its extension: reads the bytes once, hashes them, parses and validates.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { InputError } from '../domain/errors.js';
import type { Suite } from '../domain/suite.js';
import { combineSuites } from './combine.js';
import { issuesOf, SuiteError } from './suite-error.js';
import { withIncludes } from './include-read.js';
import { formatBytes, MiB, NotTextError, readFileBounded, TooLargeError } from './bounded-read.js';
import { parseCsvSuite } from './csv.js';
import type { ParsedSuite } from './parsed-suite.js';
import { mayBePromptfooConfig, parsePromptfooConfig } from './promptfoo/config.js';
import { isPromptfooCsv, parsePromptfooCsv } from './promptfoo/csv-suite.js';
import { parseYamlSuite } from './yaml.js';

export type SuiteFormat = 'yaml' | 'csv';

const FORMATS: Record<string, SuiteFormat> = { '.yaml': 'yaml', '.yml': 'yaml', '.csv': 'csv' };

/** The format a path's extension names; any other extension is an InputError. */
export function suiteFormatOf(path: string): SuiteFormat {
  const extension = extname(path).toLowerCase();
  const format = FORMATS[extension];
  if (format === undefined) {
    const found = extension === '' ? 'no extension' : `extension "${extension}"`;
    throw new InputError(`a suite file must end in .yaml, .yml or .csv; this one has ${found}`, { file: path });
  }
  return format;
}

/** A kbbench suite, or a promptfoo config (told apart by its keys: prompts, providers, tests). */
function parseYamlText(text: string, file: string): ParsedSuite {
  return (mayBePromptfooConfig(text) ? parsePromptfooConfig(text, file) : undefined) ?? parseYamlSuite(text, file);
}

/** kbbench's CSV, or one with promptfoo's columns (told apart by its header). */
function parseCsvText(bytes: Uint8Array, file: string): ParsedSuite {
  return isPromptfooCsv(bytes) ? parsePromptfooCsv(bytes, file) : parseCsvSuite(bytes, file);
}

/**
 * Parses a suite from bytes already in memory. `file` is the path as the user wrote it: every
 * message and location names it that way. The YAML reader tolerates a UTF-8 BOM; so does CSV.
 * A CSV suite keeps `bytes` and reads each case from them when asked: do not change them after.
 */
export function parseSuite(bytes: Uint8Array, file: string, format: SuiteFormat = suiteFormatOf(file), including: readonly string[] = []): Suite {
  const parsed: ParsedSuite = format === 'csv' ? parseCsvText(bytes, file) : parseYamlText(Buffer.from(bytes).toString('utf8'), file);
  const path = resolve(file);
  const { name, workspace, includes, ...rest } = parsed;
  const suite: Suite = {
    ...rest,
    name: name ?? basename(file, extname(file)),
    path,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
  if (workspace !== undefined) suite.workspace = resolve(dirname(path), workspace);
  // Knowledge documents, like the workspace, are relative to the suite file's folder.
  if (suite.knowledge) suite.knowledge = { ...suite.knowledge, patterns: suite.knowledge.patterns.map((p) => resolve(dirname(path), p)) };
  if (suite.grader_calibration) suite.grader_calibration = { ...suite.grader_calibration, labels: resolve(dirname(path), suite.grader_calibration.labels) };
  if (includes === undefined) return suite;
  // An included file is named as the including one was (relative to where the user is), so messages read alike.
  const nameOf = (included: string): string => join(dirname(file), relative(dirname(path), included));
  return withIncludes(suite, includes, [...including, path], (included, chain) => parseSuite(readIncluded(included, nameOf(included)), nameOf(included), suiteFormatOf(included), chain));
}

/** An included file's bytes (read at once: a suite's includes are read while it is parsed). */
function readIncluded(path: string, file: string): Uint8Array {
  try {
    if (statSync(path).size > MAX_SUITE_BYTES) throw new InputError(`the suite file is larger than the limit of ${formatBytes(MAX_SUITE_BYTES)}`, { file });
    return readFileSync(path);
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`cannot read the included file: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { file });
  }
}

/**
 * The largest suite read: generous (a million-row CSV is about 100 MiB and must fit), yet a suite
 * linked to /dev/zero ends here instead of in gigabytes.
 */
export const MAX_SUITE_BYTES = 1024 * MiB;

async function readSuiteBytes(file: string): Promise<Uint8Array> {
  try {
    return await readFileBounded(file, MAX_SUITE_BYTES, { text: true });
  } catch (error) {
    if (error instanceof NotTextError) throw new InputError(`${error.message}; a suite is a YAML or CSV text file (reading stopped there)`, { file });
    if (error instanceof TooLargeError) throw new InputError(`the suite file is larger than the limit of ${formatBytes(MAX_SUITE_BYTES)}; reading stopped there`, { file });
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new InputError('suite file not found', { file });
    if (code === 'EISDIR') throw new InputError('is a directory; give a .yaml, .yml or .csv suite file', { file });
    throw new InputError(`cannot read the suite file: ${(error as Error).message}`, { file });
  }
}

/** Reads, validates and returns a suite; throws SuiteError listing every problem it found. */
export async function loadSuite(file: string): Promise<Suite> {
  const format = suiteFormatOf(file);
  return parseSuite(await readSuiteBytes(file), file, format);
}

/** Several suite files as one suite (`kbbench run a.csv b.yaml`): one plan, one run; ids unique across them. */
export async function loadSuites(files: readonly string[]): Promise<Suite> {
  if (files.length === 1) return loadSuite(files[0]!);
  // Every file is read to its end: a typo in the second is named beside the first's, in one exit.
  const read = await Promise.allSettled(files.map((file) => loadSuite(file)));
  const problems = read.flatMap((r) => (r.status === 'rejected' ? issuesOf(r.reason) : []));
  if (problems.length > 0) throw new SuiteError(problems);
  return combineSuites(read.map((r) => (r as PromiseFulfilledResult<Suite>).value));
}
