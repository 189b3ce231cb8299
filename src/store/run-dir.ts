// The run directory: its files by name, and run.json written whole (never half) at start and end.
import { MAX_RUN_JSON_BYTES, readRunFile } from './run-file.js';
import { existsSync, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
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
  /** People's verdicts on the run's answers (`kbbench review`), appended as they are given. */
  labels: 'labels.csv',
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

/**
 * The one answer to "is this a kbbench run?": a directory holding run.json or results.ndjson
 * (a run killed before its first result still has run.json): merge's --out check. History's
 * walk keys on run.json by RUN_FILES.
 */
export function holdsRun(dir: string): boolean {
  return existsSync(join(dir, RUN_FILES.run)) || existsSync(join(dir, RUN_FILES.results));
}

/** Whether results were recorded here: a new run or estimate sample must not append to them; estimate --from reads them. */
export function hasResults(dir: string): boolean {
  return existsSync(join(dir, RUN_FILES.results));
}

/**
 * A run directory to read (compare, --baseline, --only-failed): both run.json and results.ndjson.
 * `role` names the flag or argument in the message (`--baseline`, `<base-dir>`), so the user knows
 * which of two directories is wrong. Throws InputError (exit 2).
 */
export function assertRunDir(dir: string, role: string): RunInfo {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new InputError(`not a run directory: ${dir} does not exist or is not a directory`, { file: dir, field: role });
  }
  const missing = [RUN_FILES.run, RUN_FILES.results].filter((name) => !existsSync(join(dir, name)));
  if (missing.length > 0) {
    throw new InputError(`not a run directory: ${dir} has no ${missing.join(' and no ')} (give a directory written by kbbench run)`, { file: dir, field: role });
  }
  return readRunInfo(dir);
}

export function readRunInfo(dir: string): RunInfo {
  const path = join(dir, RUN_FILES.run);
  if (!existsSync(path)) throw new InputError(`not a run directory: ${RUN_FILES.run} is missing`, { file: path });
  let raw: unknown;
  try {
    raw = JSON.parse(readRunFile(path, MAX_RUN_JSON_BYTES));
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`cannot read run.json: ${(error as Error).message}`, { file: path });
  }
  return parseRunInfo(raw, path);
}

/** `reports/<suite-name>-<timestamp>`: sortable, filesystem-safe; claimRunDir makes it unique. */
export function defaultRunDir(root: string, suiteName: string, startedAtIso: string): string {
  const stamp = startedAtIso.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  const safe = suiteName.replace(/[^A-Za-z0-9._-]+/g, '-');
  return join(root, `${safe}-${stamp}`);
}

/**
 * Creates a default run directory that no other run has: two runs of one suite started in the same
 * second would share `<suite>-<second>`, so the second one gets `-2` (then `-3`…). mkdir of the last
 * component is atomic: of two processes, exactly one creates each name.
 */
export function claimRunDir(base: string): string {
  try {
    mkdirSync(dirname(base), { recursive: true });
  } catch (error) {
    // Named as ensureRunDir names it: the run directory, and the ancestor that could not be made.
    const cause = causeOf(dirname(base), error as NodeJS.ErrnoException);
    throw new InputError(`cannot create the run directory (${cause.at}): ${cause.code}`, { file: base, field: '--out' });
  }
  for (let n = 1; n < 1000; n += 1) {
    const dir = n === 1 ? base : `${base}-${n}`;
    try {
      mkdirSync(dir);
      return dir;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new InputError(`cannot create the run directory: ${(error as NodeJS.ErrnoException).code ?? 'error'}`, { file: dir, field: '--out' });
      }
    }
  }
  throw new InputError('a thousand runs of this suite started in this second: name the run directory with --out', { file: base, field: '--out' });
}

/**
 * `--out` of run, merge and compare writes kbbench's files (run.json, report.html…) into the
 * directory: one that exists, is not empty and is not kbbench's (no run.json, nor `marker`) holds
 * someone else's files, which would be overwritten. Refused (exit 2), naming a few of them.
 */
export function assertOutDirIsOurs(dir: string, field: string, markers: readonly string[] = [RUN_FILES.run]): void {
  if (!existsSync(dir)) return;
  if (!statSync(dir).isDirectory()) throw new InputError('exists and is not a directory', { file: dir, field });
  // kbbench's own hidden files (its lock, a killed report's leftovers) do not make it someone else's.
  const entries = readdirSync(dir).filter((name) => !name.startsWith('.kbbench'));
  if (entries.length === 0 || markers.some((m) => entries.includes(m))) return;
  const shown = entries.slice(0, 3).join(', ') + (entries.length > 3 ? ', …' : '');
  throw new InputError(`is not empty and is not a kbbench run directory (it holds ${shown}): kbbench would overwrite files there; name a new or empty directory`, { file: dir, field });
}

/**
 * The files a resume appends to must be the run directory's own: a symbolic link (results.ndjson →
 * ~/.ssh/authorized_keys) would have a resume read and append outside it. Refused (exit 2).
 */
export function assertNoLinkedRunFiles(dir: string): void {
  for (const name of [RUN_FILES.results, RUN_FILES.timeline, RUN_FILES.run]) {
    const path = join(dir, name);
    let link = false;
    try {
      link = lstatSync(path).isSymbolicLink();
    } catch {
      continue; // not there yet
    }
    if (link) throw new InputError(`${name} is a symbolic link: kbbench reads and appends only the run directory's own files; replace it with the file itself`, { file: path, field: '--resume' });
  }
}
