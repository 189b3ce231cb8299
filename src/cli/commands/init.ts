// `kbbench init [DIR]`: writes a small working project (workspace, documents, suite, questions, CI
// workflow, .gitignore) and prints what it wrote and the next three commands. Never overwrites.
import { join, relative, resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { writeProject } from '../../init/write-project.js';
import { EXIT, type ExitCode } from '../exit.js';
import type { CliIo } from '../io.js';

export function initCommand(io: CliIo, setExit: (code: ExitCode) => void): CommandModule {
  return {
    command: 'init [dir]',
    describe: 'write a small working project to edit into your own: documents, a suite with a CSV of questions, a CI workflow',
    builder: (y) =>
      y
        .positional('dir', { type: 'string', default: '.', describe: 'folder to write into (created if missing; no file in it is overwritten)' })
        .example('$0 init', 'a project in this folder')
        .example('$0 init my-kb && cd my-kb && kbbench run suite.yaml', 'a project in my-kb, then its first run'),
    handler: (argv) => {
      const dir = argv.dir as string;
      const written = writeProject(resolve(io.cwd, dir));
      io.out(`wrote ${written.length} files:`);
      for (const path of written) io.out(`  ${relative(io.cwd, path)}`);
      const at = (file: string): string => (dir === '.' ? file : join(dir, file));
      const next: [string, string][] = [
        [`kbbench run ${at('suite.yaml')} --out ${at('baselines/main')}`, 'answer every question from docs/; keep the run as the baseline'],
        [`kbbench run ${at('suite.yaml')} --baseline ${at('baselines/main')}`, 'after editing docs/ or questions.csv: what changed (exit 1 on a regression)'],
        [`kbbench validate ${at('suite.yaml')}`, 'check an edited suite (sends nothing)'],
      ];
      const width = Math.max(...next.map(([command]) => command.length));
      io.out('\nnext:');
      for (const [command, why] of next) io.out(`  ${command.padEnd(width)}  # ${why}`);
      setExit(EXIT.ok);
    },
  };
}
