// `kbbench doctor`: a bounded set of probes of a service against interface.md; exit 0 every tested
// row conforms, 1 a row differs, 2 bad input (nothing sent), 3 unreachable, key refused or stopped by --max-credits.
import type { Argv, CommandModule } from 'yargs';
import { InputError } from '../../domain/errors.js';
import { EXIT, type ExitCode } from '../exit.js';
import type { CliIo } from '../io.js';
import { parseDurationMs, positive } from '../parse.js';

const DEFAULT_OUT = 'doctor.json';

function doctorFlags<T>(y: Argv<T>) {
  return y
    .option('base-url', { type: 'string', describe: 'service base URL (env KBBENCH_BASE_URL); default: the embedded reference service' })
    .option('api-key-file', { type: 'string', describe: 'file holding the API key (else env KBBENCH_API_KEY)' })
    .option('board', { type: 'string', describe: 'board id the answers go to (default: the first board listed)' })
    .option('chat', { type: 'string', describe: 'chat assistant id the answers go to (default: the first chat of the board)' })
    .option('max-credits', { type: 'number', default: 1, describe: 'stop before spending more than this; the probes left are not tested (exit 3)' })
    .option('timeout', { type: 'string', default: '60s', describe: 'per-request time limit' })
    .option('out', { type: 'string', default: DEFAULT_OUT, describe: 'where doctor.json is written' })
    .option('json', { type: 'boolean', default: false, describe: 'print doctor.json on stdout instead of the table (no file is written)' })
    .option('workspace', { type: 'string', describe: 'embedded service workspace file (without --base-url; default: the demo)' });
}

const EXIT_FOR = { conforms: EXIT.ok, differs: EXIT.failed, incomplete: EXIT.stopped, unreachable: EXIT.stopped } as const;

export function doctorCommand(io: CliIo, setExit: (code: ExitCode) => void): CommandModule {
  return {
    command: 'doctor',
    describe: 'check a service against interface.md before trusting a run: key forms, stream dialect, errors, credits',
    builder: (y) =>
      doctorFlags(y)
        .example('$0 doctor', 'the embedded reference service (it must conform to itself)')
        .example('KBBENCH_API_KEY=… $0 doctor --base-url https://api.example.com --board B --chat C', 'the live service; writes doctor.json')
        .example('KBBENCH_API_KEY=… $0 doctor --base-url http://127.0.0.1:8787 --json', 'doctor.json on stdout')
        .example('$0 run suites/demo.yaml --profile doctor.json', 'run with the key form and stream dialect doctor found')
        .epilog('Exit: 0 all conform, 1 one differs, 2 bad input (nothing sent), 3 unreachable, key refused or stopped at --max-credits.'),
    handler: async (argv) => {
      const a = argv as Record<string, unknown>;
      const maxCredits = positive(a.maxCredits as number, 'max-credits', { allowZero: true }) ?? 1;
      const timeoutMs = parseDurationMs(a.timeout as string, 'timeout');
      const baseUrl = (a.baseUrl as string | undefined) ?? io.env.KBBENCH_BASE_URL;
      if (baseUrl !== undefined && (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol))) {
        throw new InputError(`expected an http(s) URL, got "${baseUrl}"`, { field: '--base-url' });
      }
      if ((a.board === undefined) !== (a.chat === undefined)) throw new InputError('give --board and --chat together, or neither', { field: a.board === undefined ? '--board' : '--chat' });
      const { doctorAction } = await import('./doctor-action.js');
      const verdict = await doctorAction(io, { ...a, baseUrl, maxCredits, timeoutMs, out: String(a.out ?? DEFAULT_OUT) });
      setExit(EXIT_FOR[verdict]);
    },
  };
}
