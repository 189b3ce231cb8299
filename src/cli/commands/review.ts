// `kbbench review RUN_DIR`: a local page (127.0.0.1, a token in its URL) to mark a run's answers right or wrong; labels go to labels.csv.
import { serveUntilStopped } from '../signals.js';
import { spawn } from 'node:child_process';
import type { CommandModule } from 'yargs';
import { InputError } from '../../domain/errors.js';
import { startReviewServer } from '../../review/server.js';
import { assertRunDir, RUN_FILES } from '../../store/run-dir.js';
import { EXIT, type ExitCode } from '../exit.js';
import type { CliIo } from '../io.js';

/** The platform's opener, where there is one; a missing one is said, not fatal (the URL is printed). */
function openBrowser(url: string, io: CliIo): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(command, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => io.err(`--open: no browser opener (${command}) here; open the URL above yourself`));
  child.unref();
}

export function reviewCommand(io: CliIo, setExit: (code: ExitCode) => void): CommandModule {
  return {
    command: 'review <run-dir>',
    describe: "mark a run's answers right or wrong on a local page; labels go to labels.csv in the run directory",
    builder: (y) =>
      y
        .positional('run-dir', { type: 'string', demandOption: true })
        .option('port', { type: 'number', default: 0, describe: 'port on 127.0.0.1 (0 picks a free one)' })
        .option('open', { type: 'boolean', default: false, describe: 'open the page in the default browser' })
        .example('$0 review reports/parcel-lockers-20261128T050000Z', 'print the page\'s URL (with its token); Ctrl-C stops it')
        .example('$0 review reports/parcel-lockers-20261128T050000Z --port 8790 --open', 'a fixed port, opened in the browser'),
    handler: async (argv) => {
      const runDir = argv.runDir as string;
      const port = argv.port as number;
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InputError(`--port must be a port number (0-65535), got ${String(argv.port)}`, { field: '--port' });
      const run = assertRunDir(runDir, '<run-dir>');
      let server;
      try {
        server = await startReviewServer({ runDir, run, port });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE' || code === 'EACCES') throw new InputError(`127.0.0.1:${port} cannot be listened on (${code})`, { field: '--port' });
        throw error;
      }
      io.out(`review ${run.suite.name} (run ${run.run_id}): labels go to ${runDir}/${RUN_FILES.labels}`);
      io.out(`open ${server.url}`);
      io.out('Ctrl-C stops it; a later review of this run continues where this one stopped.');
      if (argv.open) openBrowser(server.url, io);
      await serveUntilStopped(io.signals, () => server.close());
      setExit(EXIT.ok);
    },
  };
}
