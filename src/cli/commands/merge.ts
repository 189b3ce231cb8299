// `kbbench merge <run-dir>… --out <dir>`: shard runs into one; exit 0 pass, 1 a check or threshold failed, 2 bad or missing shards, 3 incomplete.
import type { CommandModule } from 'yargs';
import { mergeRuns } from '../../merge/merge-runs.js';
import { renderConsoleSummary } from '../../report/console-summary.js';
import { isoNow } from '../../runner/clock.js';
import { exitForVerdict, type ExitCode } from '../exit.js';
import type { CliIo } from '../io.js';
import { TOOL_VERSION } from '../version.js';

export function mergeCommand(io: CliIo, setExit: (code: ExitCode) => void): CommandModule {
  return {
    command: 'merge <run-dirs..>',
    describe: 'merge shard runs (--shard i/N) into one run, histograms added exactly',
    builder: (y) =>
      y
        .positional('run-dirs', { type: 'string', array: true, demandOption: true, describe: 'run directories of the shards' })
        .option('out', { type: 'string', demandOption: true, describe: 'the merged run directory (must not hold a run yet)' })
        .option('force', { type: 'boolean', default: false, describe: 'merge runs of different suites (sha256) anyway' })
        .option('allow-partial', { type: 'boolean', default: false, describe: 'merge a set of shards with some missing, as an incomplete run (exit 3); without it a missing shard is an input error (exit 2)' })
        .option('json', { type: 'boolean', default: false, describe: 'print the merged summary.json on stdout' })
        .option('quiet', { type: 'boolean', default: false, describe: 'print nothing but errors' })
        .example('$0 merge reports/shard-1 reports/shard-2 --out reports/merged', 'two shards of one suite into one run')
        .example('$0 merge reports/demo-s* --out reports/demo-all --json', 'every shard, the merged summary as JSON')
        .example('$0 run suites/demo.yaml --shard 1/2 --out s1 && $0 run suites/demo.yaml --shard 2/2 --out s2 && $0 merge s1 s2 --out all', 'shard a run, then merge it'),
    handler: async (argv) => {
      const result = await mergeRuns({
        runDirs: (argv.runDirs as string[]).map(String), outDir: argv.out as string, force: argv.force === true, allowPartial: argv.allowPartial === true,
        toolVersion: TOOL_VERSION, nowIso: isoNow(),
      });
      for (const w of result.warnings) io.err(`warning: ${w}`);
      if (argv.json) io.out(JSON.stringify(result.summary, null, 2));
      else if (argv.quiet !== true) {
        io.out(renderConsoleSummary(result.summary, { suiteName: result.run.suite.name }));
        io.out(`merged ${result.run.shards.length} runs (${result.run.shards.map((s) => s.shard ?? s.run_dir).join(', ')}), histograms ${result.histograms} → ${result.runDir}`);
      }
      // An interrupted shard or a partial merge did not do all its work: incomplete (3), never a failure (1).
      setExit(exitForVerdict(result.summary.verdict));
    },
  };
}
