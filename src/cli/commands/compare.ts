// `kbbench compare <base-dir> <head-dir>`: compares two runs; exit 0 pass, 1 a regression or judged rise, 2 bad input.
import { assertOutDirIsOurs, RUN_FILES } from '../../store/run-dir.js';
import { resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { compareOptionsFrom, compareRuns, renderCompareConsole, writeComparison, type Comparison, type CompareOptions, type WrittenComparison } from '../../compare/index.js';
import { exitForVerdict, type ExitCode } from '../exit.js';
import type { CliIo } from '../io.js';
import { compareTuningOptions } from './compare-flags.js';

/** Parsed before anything runs or is read, so a bad value is exit 2 with the flag named. */
export function compareOptionsOf(argv: Record<string, unknown>): CompareOptions {
  return compareOptionsFrom({
    latencyTolerance: argv.latencyTolerance as string | undefined,
    creditsTolerance: argv.creditsTolerance as string | undefined,
    failOn: argv.failOn as string | undefined,
    alpha: argv.alpha as number | undefined,
    tolerance: argv.tolerance as string | undefined,
    allowDifferentSuites: argv.allowDifferentSuites === true,
  });
}

/** Prints the console summary and where the files went (to stderr when stdout carries JSON). */
export function printComparison(io: CliIo, comparison: Comparison, written: WrittenComparison, toStderr: boolean): void {
  const print = (text: string): void => (toStderr ? io.err(text) : io.out(text));
  print(renderCompareConsole(comparison));
  print(`comparison: ${written.html} (and ${written.json}${written.markdown ? `, ${written.markdown}` : ''})`);
}

export function compareCommand(io: CliIo, setExit: (code: ExitCode) => void): CommandModule {
  return {
    command: 'compare <base-dir> <head-dir>',
    describe: 'compare two runs (answers, pass/fail, latency, credits); exit 1 on regression',
    builder: (y) =>
      y
        .positional('base-dir', { type: 'string', demandOption: true, describe: 'the earlier run directory (the baseline)' })
        .positional('head-dir', { type: 'string', demandOption: true, describe: 'the run directory to judge' })
        .options(compareTuningOptions('Judging:'))
        .option('alpha', { type: 'number', describe: 'significance level of one comparison\'s latency and credits tests (default 0.01)', group: 'Judging:' })
        .option('out', { type: 'string', describe: 'where compare.json and compare.html go (default: <head-dir>)', group: 'Output:' })
        .option('json', { type: 'boolean', default: false, describe: 'print compare.json on stdout (the summary goes to stderr)', group: 'Output:' })
        .example('$0 compare base/ head/', 'what changed between two runs of a suite')
        .example('$0 compare base/ head/ --markdown pr.md', 'also write a pull-request comment')
        .example('$0 compare base/ head/ --fail-on regressions', 'fail only on pass → fail items')
        .example('$0 compare a/ b/ --latency-tolerance 20%', 'tolerate more before a judged rise fails')
        .epilogue(
          [
            'Items are matched by item_id, repeats pooled: an item passes when most of its repeats pass.',
            'A pass → fail of a stable item fails; of a flaky one (repeats disagree) only through the pass rate,',
            'which fails when a paired test over the items finds a drop beyond --tolerance (docs/comparing-models.md).',
            'A latency rise fails only when a Mann-Whitney U test finds it significant AND the median rose',
            'by more than the tolerance; credits per request likewise, with a paired bootstrap.',
            'Runs of differently named suites are refused (exit 2) unless --allow-different-suites.',
            'Exit: 0 pass · 1 fail · 2 not a run directory, runs of different suites, or a bad flag.',
          ].join('\n'),
        ),
    handler: async (argv) => {
      const options = compareOptionsOf(argv as Record<string, unknown>);
      const headDir = resolve(argv.headDir as string);
      // compare.json and compare.html go into --out: never into a directory of someone else's files.
      if (typeof argv.out === 'string') assertOutDirIsOurs(resolve(argv.out), '--out', [RUN_FILES.run, RUN_FILES.compareJson]);
      const comparison = await compareRuns(resolve(argv.baseDir as string), headDir, options);
      const markdown = argv.markdown === undefined ? undefined : resolve(argv.markdown as string);
      const written = await writeComparison(resolve((argv.out as string | undefined) ?? headDir), comparison, markdown);
      if (argv.json) io.out(JSON.stringify(comparison, null, 2));
      printComparison(io, comparison, written, argv.json === true);
      setExit(exitForVerdict(comparison.verdict));
    },
  };
}
