// `kbbench history DIR… [--suite NAME] [--out DIR]`: every run of a suite on one page; exit 0, or 2 on bad input.
import type { CommandModule } from 'yargs';
import { shownLabel, writeHistory } from '../../history/index.js';
import { EXIT, type ExitCode } from '../exit.js';
import type { CliIo } from '../io.js';
import { TOOL_VERSION } from '../version.js';

export function historyCommand(io: CliIo, setExit: (code: ExitCode) => void): CommandModule {
  return {
    command: 'history <dirs..>',
    describe: 'every run of a suite on one page: trends, change points, flipped and flaky questions (history.html, history.json)',
    builder: (y) =>
      y
        .positional('dirs', { type: 'string', array: true, demandOption: true, describe: 'run directories, or folders holding them (searched at any depth)' })
        .option('suite', { type: 'string', describe: 'only runs of this suite (run.json suite.name)' })
        .option('out', { type: 'string', default: '.', describe: 'folder for history.html and history.json' })
        .option('quiet', { type: 'boolean', default: false, describe: 'print nothing but errors' })
        .example('$0 history reports --out reports', 'every run under reports/, one page: reports/history.html')
        .example('$0 history runs/ --suite demo --out site', 'only the demo suite, for a CI page'),
    handler: async (argv) => {
      const result = await writeHistory((argv.dirs as string[]).map(String), {
        outDir: argv.out as string,
        toolVersion: TOOL_VERSION,
        ...(typeof argv.suite === 'string' ? { suite: argv.suite } : {}),
      });
      for (const s of result.json.skipped) io.err(`skipped ${s.dir}: ${s.reason}`);
      if (argv.quiet !== true) {
        const { runs, change_points: changes, flaky } = result.json;
        io.out(`${runs.length} runs, ${changes.length} change points, ${flaky.length} flaky questions`);
        for (const c of changes) {
          const at = [c.label === undefined ? undefined : shownLabel(c.label), c.commit?.slice(0, 12)].filter(Boolean).join(' · ') || c.run_id;
          io.out(`  ${c.suite} ${c.tag !== undefined ? `tag ${c.tag}` : c.model} ${c.metric}: ${round(c.before)} → ${round(c.after)} at ${at} (p = ${c.p_value.toFixed(3)})`);
        }
        io.out(`wrote ${result.htmlPath} and ${result.jsonPath}`);
      }
      setExit(EXIT.ok);
    },
  };
}

function round(value: number): string {
  return Number(value.toPrecision(4)).toString();
}
