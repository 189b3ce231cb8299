// `run --baseline DIR`: checked before the run sends anything; after it, the new run is compared with the baseline.
import { resolve } from 'node:path';
import { join } from 'node:path';
import { compareRuns, writeComparison, type Comparison } from '../../compare/index.js';
import { assertRunDir } from '../../store/run-dir.js';
import { withConfirmed } from '../../compare/compare-runs.js';
import type { ConfirmFinding } from '../../compare/types.js';
import { CONFIRM_DIR } from '../../confirm/confirm-flips.js';
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

/** Re-asks the comparison's stable regressions `repeats` times (confirm/confirm-flips.ts); null when there were none. */
export type ConfirmStep = (comparison: Comparison, repeats: number) => Promise<ConfirmFinding[] | null>;

/** `--confirm N`: 0 when not given; exit 2 before anything is sent when not a whole number of 1 to 20. */
export function confirmRepeatsOf(argv: Record<string, unknown>): number {
  const value = argv.confirm;
  if (value === undefined) return 0;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 20) throw new InputError(`expected a whole number of re-asks from 1 to 20, got "${String(value)}"`, { field: '--confirm' });
  if (typeof argv.baseline !== 'string') throw new InputError('--confirm re-asks what flipped against a --baseline: give --baseline DIR', { field: '--confirm' });
  return n;
}

/** Compares base = --baseline with head = the new run, writes compare.json/.html into the run; true when it failed. */
export async function runBaselineCompare(
  io: CliIo, argv: Record<string, unknown>, result: SessionResult, quiet: boolean, confirm?: ConfirmStep,
): Promise<boolean> {
  const options = compareOptionsOf(argv);
  let comparison = await compareRuns(resolve(argv.baseline as string), result.runDir, options, { base: '--baseline', head: 'the new run' });
  const repeats = confirmRepeatsOf(argv);
  if (repeats > 0 && confirm) {
    const items = await confirm(comparison, repeats);
    if (items) comparison = withConfirmed(comparison, { repeats, dir: join(result.runDir, CONFIRM_DIR), items }, options);
  }
  const markdown = typeof argv.markdown === 'string' ? resolve(argv.markdown) : undefined;
  const written = await writeComparison(result.runDir, comparison, markdown);
  // With --json stdout carries summary.json alone, so the comparison's summary goes to stderr; --quiet prints none.
  if (argv.quiet !== true) printComparison(io, comparison, written, quiet);
  return comparison.verdict === 'fail';
}
