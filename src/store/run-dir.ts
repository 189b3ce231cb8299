// The run directory: its files by name, and run.json written whole (never half) at start and end.
import { mkdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { RunInfo } from '../domain/run.js';
import { InputError } from '../domain/errors.js';
import { writeFileAtomicSync } from './atomic-file.js';
import { parseRunInfo } from './run-info.js';

/** Every file of a run directory, by name: the one place these names are written. */
export const RUN_FILES = {
  run: 'run.json',
  results: 'results.ndjson',
  summary: 'summary.json',
  histograms: 'histograms.json',
  samplesCsv: 'samples.csv',
  summaryCsv: 'summary.csv',
  casesCsv: 'cases.csv',
  html: 'report.html',
  junit: 'junit.xml',
  timeline: 'timeline.ndjson',
  compareJson: 'compare.json',
  compareHtml: 'compare.html',
} as const;

export function ensureRunDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    const cause = causeOf(dir, error as NodeJS.ErrnoException);
    throw new InputError(`cannot create the run directory${cause.at === dir ? '' : ` (${cause.at})`}: ${cause.code}`, { file: dir, field: '--out' });
  }
}

/**
 * Node's recursive mkdir says ENOENT when it could not make a missing parent, whatever stopped it
 * (a read-only file system, EROFS, in particular): the first missing ancestor is made alone, so its
 * own error is the one reported, with its path.
 */
function causeOf(dir: string, error: NodeJS.ErrnoException): { code: string; at: string } {
  const code = error.code ?? 'error';
  if (code !== 'ENOENT') return { code, at: dir };
  let missing = resolve(dir);
  while (!existsSync(dirname(missing)) && dirname(missing) !== missing) missing = dirname(missing);
  try {
    mkdirSync(missing);
  } catch (inner) {
    return { code: (inner as NodeJS.ErrnoException).code ?? code, at: missing };
  }
  return { code, at: dir };
}

/** Written to a temporary name and renamed, so a reader never sees half a run.json. */
export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomicSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

export function writeRunInfo(dir: string, info: RunInfo): void {
  writeJsonAtomic(join(dir, RUN_FILES.run), info);
}

export function readRunInfo(dir: string): RunInfo {
  const path = join(dir, RUN_FILES.run);
  if (!existsSync(path)) throw new InputError(`not a run directory: ${RUN_FILES.run} is missing`, { file: path });
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new InputError(`cannot read run.json: ${(error as Error).message}`, { file: path });
  }
  return parseRunInfo(raw, path);
}

/** `reports/<suite-name>-<timestamp>`: sortable, filesystem-safe, unique per second. */
export function defaultRunDir(root: string, suiteName: string, startedAtIso: string): string {
  const stamp = startedAtIso.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  const safe = suiteName.replace(/[^A-Za-z0-9._-]+/g, '-');
  return join(root, `${safe}-${stamp}`);
}
