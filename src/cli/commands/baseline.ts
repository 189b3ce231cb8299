// `run --baseline DIR`: checked before the run sends anything; after it, the new run is compared with the baseline.
import { resolve } from 'node:path';
import { compareRuns, assertRunDir, writeComparison } from '../../compare/index.js';
import { InputError } from '../../domain/errors.js';
import type { RunInfo } from '../../domain/run.js';
import type { SessionResult } from '../../session/run-session.js';
import type { CliIo } from '../io.js';
import { compareOptionsOf, printComparison } from './compare.js';

/**
 * Throws InputError (exit 2, nothing sent) when --baseline is not a run directory, when the new
 * run would write into it (--out/--resume the same directory would overwrite the baseline), or
 * when a judging flag is malformed. Returns the baseline's run.json, so the run can refuse a suite
 * of another name before it sends anything.
 */
export function checkBaseline(argv: Record<string, unknown>): RunInfo | undefined {
  if (typeof argv.baseline !== 'string') return undefined;
  const baseline = resolve(argv.baseline);
  const run = assertRunDir(baseline, '--baseline');
  for (const flag of ['out', 'resume'] as const) {
    const dir = argv[flag];
    if (typeof dir === 'string' && resolve(dir) === baseline) {
      throw new InputError(`the run would write into its own baseline ${baseline}; give --${flag} another directory`, { field: '--baseline' });
    }
  }
  compareOptionsOf(argv);
  return run;
}

/** Compares base = --baseline with head = the new run, writes compare.json/.html into the run; true when it failed. */
export async function runBaselineCompare(io: CliIo, argv: Record<string, unknown>, result: SessionResult, quiet: boolean): Promise<boolean> {
  const options = compareOptionsOf(argv);
  const comparison = await compareRuns(resolve(argv.baseline as string), result.runDir, options, { base: '--baseline', head: 'the new run' });
  const markdown = typeof argv.markdown === 'string' ? resolve(argv.markdown) : undefined;
  const written = await writeComparison(result.runDir, comparison, markdown);
  // With --json stdout carries summary.json alone, so the comparison's summary goes to stderr; --quiet prints none.
  if (argv.quiet !== true) printComparison(io, comparison, written, quiet);
  return comparison.verdict === 'fail';
}
