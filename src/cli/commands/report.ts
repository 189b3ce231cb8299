// `kbbench report <run-dir>`: rebuilds every report of a run from results.ndjson (interrupted runs too).
import type { CommandModule } from 'yargs';
import { renderConsoleSummary } from '../../report/console-summary.js';
import { DEFAULT_GATES, parseFailOn } from '../../metrics/gates.js';
import { planOfRun } from '../../plan/of-run.js';
import type { Plan } from '../../plan/types.js';
import type { RunInfo } from '../../domain/run.js';
import { recordedSelection } from '../../store/run-selection.js';
import { finishReports } from '../../session/finish.js';
import { removeLeftovers } from '../../store/leftovers.js';
import { assertUniqueItems } from '../../store/run-integrity.js';
import { readRunInfo } from '../../store/run-dir.js';
import { acquireRunLock, takeOverNotice } from '../../store/run-lock.js';
import { exitForVerdict, type ExitCode } from '../exit.js';
import type { CliIo } from '../io.js';

/** The run's plan under its own --filter/--only-failed: cases it never selected were never "left unsent". */
async function plannedOf(run: RunInfo): Promise<Plan | null> {
  const selection = await recordedSelection(run);
  return selection === null ? null : planOfRun(run, selection);
}

export function reportCommand(io: CliIo, setExit: (code: ExitCode) => void): CommandModule {
  return {
    command: 'report <run-dir>',
    describe: 'rebuild every report of a run from its results.ndjson',
    builder: (y) =>
      y
        .positional('run-dir', { type: 'string', demandOption: true })
        .option('json', { type: 'boolean', default: false, describe: 'print summary.json on stdout' })
        .option('fail-on', { type: 'string', describe: `gates of the verdict: checks,thresholds or none (default: the run's, else ${DEFAULT_GATES.join(',')})` })
        .example('$0 report reports/demo-20261122T101500Z', 'rebuild report.html, CSV, JUnit and summary.json'),
    handler: async (argv) => {
      const dir = argv.runDir as string;
      const failOn = parseFailOn(argv.failOn as string | undefined);
      const run = readRunInfo(dir);
      // A report rewrites every report file: it holds the directory's lock, as run and merge do.
      const lock = acquireRunLock(dir, 'kbbench report');
      let summary;
      try {
        const tookOver = takeOverNotice(lock);
        if (tookOver) io.err(`warning: ${tookOver}`);
        removeLeftovers(dir);
        await assertUniqueItems(dir);
        // A completed run's plan too: a cut results.ndjson lists what it lacks (junit.xml), as an unfinished run does.
        summary = await finishReports(dir, run, { plan: await plannedOf(run), ...(failOn ? { failOn } : {}) });
      } finally {
        lock.release();
      }
      if (argv.json) io.out(JSON.stringify(summary, null, 2));
      else {
        io.out(renderConsoleSummary(summary, { suiteName: run.suite.name, runDir: dir }));
        io.out(`reports rebuilt in ${dir}`);
      }
      // Same codes as the run had: a failure is 1, a run that did not finish (incomplete, a kill -9'd `running` one too) is 3.
      setExit(exitForVerdict(summary.verdict));
    },
  };
}
