// The CLI as a value: argv and a host in, an exit code out. The bin (bin.ts, bundled as dist/cli/main.js) passes the real process;
// tests run it in-process with their own streams and environment. yargs wiring only: each command
// lives in commands/ and sets its exit code.
import yargs from 'yargs';
import { commandModules, commandName, commandNamed, COMMANDS } from './commands/index.js';
import { didYouMean } from '../suite/suite-error.js';
import { InputError } from '../domain/errors.js';
import { describeError, EXIT, exitCodeFor, type ExitCode } from './exit.js';
import { knownFlags, withFlagSuggestions } from './flag-suggest.js';
import { assertSwitchValues } from './switch-values.js';
import type { CliHost } from './host.js';
import { cliIo } from './io.js';
import { TOOL_VERSION } from './version.js';

export async function runCli(argv: readonly string[], host: CliHost): Promise<ExitCode> {
  const io = cliIo(host);
  let code: ExitCode;
  try {
    code = await parse([...argv], io, host);
  } catch (error) {
    io.err(`kbbench: ${describeError(error)}`);
    code = exitCodeFor(error);
  }
  host.exit(code);
  return code;
}

/** A first word that is no command is a mistyped command (not a flag, not a suite): say which was meant. */
function assertCommandWord(argv: readonly string[]): void {
  const [word] = argv;
  if (word === undefined || word.startsWith('-') || commandNamed([word])) return;
  const names = COMMANDS.map(commandName);
  throw new InputError(`unknown command ${word}${didYouMean(word, names)}; the commands are ${names.join(', ')} (kbbench --help)`);
}

async function parse(argv: string[], io: ReturnType<typeof cliIo>, host: CliHost): Promise<ExitCode> {
  assertCommandWord(argv);
  let exitCode: ExitCode | undefined;
  const parser = yargs(argv)
    .scriptName('kbbench')
    .usage('$0 <command> [options]\n\nEvaluate, compare and load-test knowledge-base chat assistants.')
    .strict()
    .demandCommand(1, 'Name a command: init, run, serve, validate, report, compare, estimate, merge, boards, chats.')
    .recommendCommands()
    .example('$0 init', 'write a small working project of your own (documents, suite, questions, CI workflow)')
    .example('$0 run demo', 'run the shipped demo suite against the embedded reference service')
    .example('$0 validate suites/demo.csv', 'check a suite and see what it would send')
    .example('$0 compare reports/base reports/head', 'what changed between two runs')
    .example('$0 run --help', 'every command has its own help, with examples')
    .epilogue('Exit codes: 0 passed · 1 a check, threshold or baseline failed · 2 invalid input (nothing sent) · 3 stopped early.\nThe API key comes from KBBENCH_API_KEY or --api-key-file, never from a flag value.')
    .wrap(Math.min(120, host.stdout.columns || 120))
    .fail((message, error, usage) => {
      if (error) throw error;
      // The command's own flags (yargs' usage knows them by their descriptions) for a did-you-mean.
      const known = knownFlags(Object.keys((usage as unknown as { getDescriptions(): Record<string, unknown> }).getDescriptions()));
      // Throwing stops yargs before any handler runs: a mistyped flag must never start a run.
      throw new InputError(`${withFlagSuggestions(message, known)}\nRun 'kbbench --help' or 'kbbench <command> --help'.`);
    });
  for (const module of await commandModules(argv, io, (code) => (exitCode = code))) parser.command(module);
  // Before validation and any handler: the command's switches are known here (yargs has read its builder).
  // yargs passes itself as the second argument, which its types leave out.
  const checkSwitches = (_args: unknown, instance: { getOptions(): { boolean: string[]; alias: Record<string, string[]> } }): void => {
    const { boolean: switches, alias } = instance.getOptions();
    assertSwitchValues(argv, switches, alias);
  };
  parser.middleware(checkSwitches as unknown as Parameters<typeof parser.middleware>[0], true);
  // Its own package.json: yargs would read the one above the node_modules it sits in (the user's project).
  // The parse callback keeps yargs from printing or exiting itself: --help and --version text is ours to write.
  let output = '';
  await parser
    .help()
    .alias('h', 'help')
    .version(TOOL_VERSION)
    .parseAsync(argv, {}, (_error, _argv, text) => {
      output = text;
    });
  if (output) host.stdout.write(`${output}\n`);
  return exitCode ?? EXIT.ok;
}
