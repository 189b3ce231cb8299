// `kbbench merge`: shard runs (run --shard i/N) into one run directory: results concatenated,
// histograms added exactly, run.json combined, every report rebuilt.
import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InputError } from '../domain/errors.js';
import type { HistogramFile, Summary } from '../domain/summary.js';
import { mergeHistogramFiles, readHistogramFile, writeHistogramFile } from '../metrics/histogram-file.js';
import { buildReports } from '../report/build-reports.js';
import { assertOutDirIsOurs, ensureRunDir, holdsRun, readRunInfo, RUN_FILES, writeRunInfo } from '../store/run-dir.js';
import { acquireRunLock, type RunLock } from '../store/run-lock.js';
import { mergeTimelines } from '../metrics/merge-timelines.js';
import { hasTimeline, readTimeline, TimelineFile, timelinePath } from '../store/timeline-file.js';
import { checkUniqueItems, concatResults } from './concat-results.js';
import { checkShardSet, mergedRunInfo, startShiftsMs, type MergedRunInfo, type ShardRun } from './merged-run-info.js';

export interface MergeOptions {
  runDirs: readonly string[];
  outDir: string;
  /** Merge runs of different suites (sha256) anyway. */
  force: boolean;
  /** Merge a set of shards with some missing, as an incomplete run (else an input error). */
  allowPartial?: boolean;
  toolVersion: string;
  nowIso: string;
}

export interface MergeResult {
  runDir: string;
  run: MergedRunInfo;
  summary: Summary;
  /** `added`: the shards' histograms.json summed; `rebuilt`: some shard had none (or a stale one), so from the samples. */
  histograms: 'added' | 'rebuilt';
  warnings: string[];
}

function checkInputs(dirs: readonly string[], outDir: string, force: boolean): ShardRun[] {
  if (dirs.length === 0) throw new InputError('name the run directories to merge', { field: 'run-dir' });
  const seen = new Set<string>();
  for (const dir of dirs) {
    if (seen.has(dir)) throw new InputError(`${dir} is given twice: its items would be counted twice`, { field: 'run-dir' });
    seen.add(dir);
  }
  if (seen.has(outDir)) throw new InputError('--out must be a new directory, not one of the runs being merged', { file: outDir, field: '--out' });
  if (holdsRun(outDir)) {
    throw new InputError('--out already holds a run; name a new directory', { file: outDir, field: '--out' });
  }
  assertOutDirIsOurs(outDir, '--out');
  const shards = dirs.map((dir) => ({ dir, run: readRunInfo(dir), lines: 0 }));
  const first = shards[0]!;
  const other = shards.find((s) => s.run.suite.sha256 !== first.run.suite.sha256);
  if (other && !force) {
    throw new InputError(
      `${first.dir} ran ${first.run.suite.path} (sha256 ${first.run.suite.sha256.slice(0, 12)}…) but ${other.dir} ran ${other.run.suite.path} ` +
        `(sha256 ${other.run.suite.sha256.slice(0, 12)}…): different suites; --force merges them anyway`,
      { field: 'run-dir' },
    );
  }
  return shards;
}

async function readShardHistograms(dirs: readonly string[]): Promise<HistogramFile[] | null> {
  if (!dirs.every((dir) => existsSync(join(dir, RUN_FILES.histograms)))) return null;
  return Promise.all(dirs.map((dir) => readHistogramFile(dir)));
}

/**
 * The shards' histograms, added, become the merged histograms.json. They must equal what the merged
 * samples give (HDR addition is exact); when a shard's file is missing or disagrees with its
 * results, the one rebuilt from the samples is kept, as it is what summary.json was computed from.
 */
async function addHistograms(dirs: readonly string[], outDir: string): Promise<'added' | 'rebuilt'> {
  const files = await readShardHistograms(dirs);
  if (!files) return 'rebuilt';
  const added = mergeHistogramFiles(files);
  if (JSON.stringify(added) !== JSON.stringify(await readHistogramFile(outDir))) return 'rebuilt';
  await writeHistogramFile(outDir, added);
  return 'added';
}

export async function mergeRuns(options: MergeOptions): Promise<MergeResult> {
  const dirs = options.runDirs.map((d) => resolve(d));
  const outDir = resolve(options.outDir);
  checkInputs(dirs, outDir, options.force);
  // Every shard and the output are locked for the merge: a shard still being run or resumed would be
  // merged half-done, and two merges into one --out would interleave.
  const locks: RunLock[] = [];
  try {
    for (const dir of dirs) locks.push(acquireRunLock(dir, 'kbbench merge', { readOnly: true }));
    return await mergeLocked(options, dirs, outDir, locks);
  } finally {
    for (const lock of locks) lock.release();
  }
}

async function mergeLocked(options: MergeOptions, dirs: string[], outDir: string, locks: RunLock[]): Promise<MergeResult> {
  const shards = checkInputs(dirs, outDir, options.force);
  const counts = await checkUniqueItems(dirs);
  shards.forEach((s, i) => (s.lines = counts[i]!.lines));
  const missing = checkShardSet(shards, options.allowPartial === true);
  const warnings = locks.filter((l) => l.tookOverFrom !== null).map((l) => `took over the lock of ${l.dir}, left by a process that is no longer running`);
  if (missing.length > 0) warnings.push(`shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')} missing (--allow-partial): the merged run covers part of the plan and is incomplete`);
  const unreadable = counts.reduce((a, c) => a + c.unreadable, 0);
  if (unreadable > 0) warnings.push(`${unreadable} unreadable result line(s) left out (a torn last line of an interrupted shard)`);
  const created = !existsSync(outDir);
  ensureRunDir(outDir);
  locks.push(acquireRunLock(outDir, 'kbbench merge'));
  try {
    const shifts = startShiftsMs(shards.map((s) => s.run));
    await concatResults(dirs.map((dir, i) => ({ dir, shiftMs: shifts[i]! })), outDir);
  } catch (error) {
    // Half a merged results file must not pass for a run: leave no trace of a failed merge.
    if (created) rmSync(outDir, { recursive: true, force: true });
    throw error;
  }
  const run = mergedRunInfo(shards, options.toolVersion, options.nowIso, missing);
  writeRunInfo(outDir, run);
  // Before the reports: stages, knee and thresholds are then judged once, on the merged data.
  const timeline = await mergeShardTimelines(dirs, outDir);
  if (timeline === 'partial') warnings.push('some shards have no timeline.ndjson: the merged timeline is rebuilt from the merged results');
  // Thresholds and dropped starts default to run.json's, as session/finish.ts gives them.
  const { summary } = await buildReports({ runDir: outDir, run });
  const histograms = await addHistograms(dirs, outDir);
  if (histograms === 'rebuilt') warnings.push('a shard\'s histograms.json was missing or out of date; histograms were rebuilt from the merged samples');
  return { runDir: outDir, run, summary, histograms, warnings };
}

/** timeline.ndjson of the merged run, when every shard has one; else the report rebuilds it from the merged results. */
async function mergeShardTimelines(dirs: readonly string[], outDir: string): Promise<'merged' | 'none' | 'partial'> {
  const have = dirs.filter((dir) => hasTimeline(dir));
  if (have.length === 0) return 'none';
  if (have.length < dirs.length) return 'partial';
  const file = new TimelineFile(timelinePath(outDir));
  let batch = [];
  for await (const line of mergeTimelines(dirs.map((dir) => readTimeline(dir)))) {
    batch.push(line);
    if (batch.length >= 256) {
      file.append(batch);
      batch = [];
    }
  }
  file.append(batch);
  return 'merged';
}
