// `kbbench traffic`: writes a traffic log on stdout for `run --traffic`: a run's requests as they
// were meant to start (RUN_DIR), or a seeded synthetic log from a suite (--from-suite, --shape).
import { resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { InputError } from '../../domain/errors.js';
import { assertRunDir } from '../../store/run-dir.js';
import { loadSuite } from '../../suite/load.js';
import { trafficOfRun } from '../../traffic/from-run.js';
import { generateTraffic, TRAFFIC_SHAPES, type TrafficShape } from '../../traffic/generate.js';
import type { ExitCode } from '../exit.js';
import type { CliIo } from '../io.js';
import { parseDurationMs, positive } from '../parse.js';

interface TrafficArgs {
  runDir?: string;
  fromSuite?: string;
  shape?: string;
  seed: number;
  duration: string;
  rate: number;
  thinkTime: string;
}

async function generated(io: CliIo, args: TrafficArgs): Promise<void> {
  if (!(TRAFFIC_SHAPES as readonly string[]).includes(args.shape ?? '')) {
    throw new InputError(`--from-suite needs --shape ${TRAFFIC_SHAPES.join('|')} (the day the log follows)`, { field: '--shape' });
  }
  const suite = await loadSuite(resolve(io.cwd, args.fromSuite!));
  const options = {
    shape: args.shape as TrafficShape,
    seed: positive(args.seed, 'seed', { integer: true, allowZero: true })!,
    durationMs: parseDurationMs(args.duration, 'duration'),
    ratePerS: positive(args.rate, 'rate')!,
    thinkMs: parseDurationMs(args.thinkTime, 'think-time'),
  };
  for (const line of generateTraffic(suite, options)) io.out(JSON.stringify(line));
}

export function trafficCommand(io: CliIo, _setExit: (code: ExitCode) => void): CommandModule {
  return {
    command: 'traffic [run-dir]',
    describe: "write a traffic log on stdout for run --traffic: a run's requests, or a synthetic day from a suite",
    builder: (y) =>
      y
        .positional('run-dir', { type: 'string', describe: 'a run directory: its requests at the instants they were meant to start' })
        .option('from-suite', { type: 'string', describe: 'a suite: a synthetic log of its questions and threads (needs --shape)' })
        .option('shape', { type: 'string', choices: [...TRAFFIC_SHAPES], describe: 'the synthetic log\'s day: diurnal (a quiet night, a busy midday) or bursty (a quiet base, ten bursts)' })
        .option('seed', { type: 'number', default: 1, describe: 'the synthetic log\'s seed: the same flags write the same log' })
        .option('duration', { type: 'string', default: '1h', describe: 'the synthetic log\'s span (a day compressed into it)' })
        .option('rate', { type: 'number', default: 1, describe: 'the synthetic log\'s mean arrivals per second (questions and new conversations)' })
        .option('think-time', { type: 'string', default: '20s', describe: 'the synthetic log\'s mean gap between a conversation\'s turns' })
        .example('$0 traffic reports/demo-20261122T101500Z > traffic.jsonl', "a run's requests as a log, to replay with run --traffic")
        .example('$0 traffic --from-suite suites/demo.yaml --shape diurnal --seed 1 --duration 10m --rate 2 > day.jsonl', 'a seeded synthetic day of the suite\'s questions'),
    handler: async (argv) => {
      const args = argv as unknown as TrafficArgs;
      if ((args.runDir === undefined) === (args.fromSuite === undefined)) {
        throw new InputError('give a run directory (its requests as a log) or --from-suite FILE --shape diurnal|bursty (a synthetic log), one of the two', { field: 'run-dir' });
      }
      if (args.fromSuite !== undefined) return generated(io, args);
      const dir = resolve(io.cwd, args.runDir!);
      assertRunDir(dir, 'run-dir');
      for await (const line of trafficOfRun(dir)) io.out(line);
    },
  };
}
