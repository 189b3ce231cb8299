// Every command of the CLI, in the order `kbbench --help` lists them. Only the command being run is
// imported (its flags, its handler and what they need): start-up does not load the other ten.
import type { CommandModule } from 'yargs';
import type { ExitCode } from '../exit.js';
import type { CliIo } from '../io.js';

export type CommandFactory = (io: CliIo, setExit: (code: ExitCode) => void) => CommandModule;

export interface CommandEntry {
  /** yargs' command string: the name, then its positionals. */
  command: string;
  describe: string;
  load(): Promise<CommandFactory>;
}

/** `command` and `describe` are what `kbbench --help` lists; commands.test.ts holds them equal to each module's own. */
export const COMMANDS: readonly CommandEntry[] = [
  {
    command: 'init [dir]', describe: 'write a small working project to edit into your own: documents, a suite with a CSV of questions, a CI workflow',
    load: async () => (await import('./init.js')).initCommand,
  },
  { command: 'run [suite..]', describe: 'run a suite against the embedded reference service or a live one (--base-url)', load: async () => (await import('./run.js')).runCommand },
  { command: 'serve', describe: 'run the embedded reference service alone (prints its URL and the demo key)', load: async () => (await import('./serve.js')).serveCommand },
  { command: 'validate <suite..>', describe: 'check a suite and print what a run would send (sends nothing)', load: async () => (await import('./validate.js')).validateCommand },
  { command: 'report <run-dir>', describe: 'rebuild every report of a run from its results.ndjson', load: async () => (await import('./report.js')).reportCommand },
  { command: 'compare <base-dir> <head-dir>', describe: 'compare two runs (answers, pass/fail, latency, credits); exit 1 on regression', load: async () => (await import('./compare.js')).compareCommand },
  {
    command: 'estimate <suite>', describe: 'forecast the credits (and money) of a suite or a traffic volume, from a small real sample or from earlier runs',
    load: async () => (await import('./estimate.js')).estimateCommand,
  },
  { command: 'merge <run-dirs..>', describe: 'merge shard runs (--shard i/N) into one run, histograms added exactly', load: async () => (await import('./merge.js')).mergeCommand },
  {
    command: 'traffic [run-dir]', describe: "write a traffic log on stdout for run --traffic: a run's requests, or a synthetic day from a suite",
    load: async () => (await import('./traffic.js')).trafficCommand,
  },
  {
    command: 'history <dirs..>', describe: 'every run of a suite on one page: trends, change points, flipped and flaky questions (history.html, history.json)',
    load: async () => (await import('./history.js')).historyCommand,
  },
  {
    command: 'grader-check <labels>', describe: "how far the grader agrees with people's verdicts (accuracy, Cohen's kappa, disagreements)",
    load: async () => (await import('./grader-check.js')).graderCheckCommand,
  },
  {
    command: 'doctor', describe: 'check a service against interface.md before trusting a run: key forms, stream dialect, errors, credits',
    load: async () => (await import('./doctor.js')).doctorCommand,
  },
  {
    command: 'regrade <run-dir>', describe: "judge a run's stored answers again with the suite's current checks and grader (sends nothing to the service)",
    load: async () => (await import('./regrade.js')).regradeCommand,
  },
  { command: 'review <run-dir>', describe: "mark a run's answers right or wrong on a local page; labels go to labels.csv in the run directory", load: async () => (await import('./review.js')).reviewCommand },
  { command: 'boards', describe: 'list the boards the API key can see', load: async () => (await import('./listing.js')).boardsCommand },
  { command: 'chats', describe: 'list the chat assistants of a board, with their conversations', load: async () => (await import('./listing.js')).chatsCommand },
];

export const commandName = (entry: Pick<CommandEntry, 'command'>): string => entry.command.split(' ')[0]!;

/** The command argv names: the first word that is a command's name (a command comes before its own positionals). */
export function commandNamed(argv: readonly string[]): CommandEntry | undefined {
  for (const arg of argv) {
    const entry = COMMANDS.find((e) => commandName(e) === arg);
    if (entry) return entry;
  }
  return undefined;
}

/**
 * The command modules yargs gets: the named one loaded whole, the others as their name and
 * description only (for `--help` and "did you mean"); none of those can be chosen by this argv.
 */
export async function commandModules(argv: readonly string[], io: CliIo, setExit: (code: ExitCode) => void): Promise<CommandModule[]> {
  const named = commandNamed(argv);
  const loaded = named ? (await named.load())(io, setExit) : undefined;
  return COMMANDS.map((entry) =>
    entry === named && loaded
      ? loaded
      : {
          command: entry.command,
          describe: entry.describe,
          handler: () => {
            throw new Error(`kbbench: command ${commandName(entry)} was not loaded`);
          },
        },
  );
}
