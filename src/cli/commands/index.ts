// Every command of the CLI, in the order `kbbench --help` lists them.
import type { CommandModule } from 'yargs';
import type { ExitCode } from '../exit.js';
import type { CliIo } from '../io.js';
import { runCommand } from './run.js';
import { serveCommand } from './serve.js';
import { validateCommand } from './validate.js';
import { reportCommand } from './report.js';
import { boardsCommand, chatsCommand } from './listing.js';
import { compareCommand } from './compare.js';
import { estimateCommand } from './estimate.js';
import { mergeCommand } from './merge.js';
import { graderCheckCommand } from './grader-check.js';
import { historyCommand } from './history.js';

export type CommandFactory = (io: CliIo, setExit: (code: ExitCode) => void) => CommandModule;

const FACTORIES: CommandFactory[] = [runCommand, serveCommand, validateCommand, reportCommand, compareCommand, estimateCommand, mergeCommand, historyCommand, graderCheckCommand, boardsCommand, chatsCommand];

export function commandModules(io: CliIo, setExit: (code: ExitCode) => void): CommandModule[] {
  return FACTORIES.map((factory) => factory(io, setExit));
}
