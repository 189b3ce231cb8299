// `kbbench estimate <suite>`: a small real sample, then the credits a run (or a volume of traffic) will spend.
import type { CommandModule } from 'yargs';
import { estimateSuite, type Estimate } from '../../session/estimate.js';
import { InputError } from '../../domain/errors.js';
import { formatCredits, formatCount } from '../../report/format.js';
import { renderTable } from '../../report/index.js';
import { EXIT, type ExitCode } from '../exit.js';
import type { CliIo } from '../io.js';
import { positive } from '../parse.js';
import { withSessionConsole } from '../session-console.js';
import { sendFlags, toSessionOptions } from './run-flags.js';

const DEFAULT_SAMPLE = 5;
const DEFAULT_LEVEL = 0.95;

/** `0.95`, `95` or `95%`: people write interval levels all three ways. */
function parseLevel(value: string | number | undefined): number {
  if (value === undefined) return DEFAULT_LEVEL;
  const text = String(value).trim();
  const n = Number(text.endsWith('%') ? text.slice(0, -1) : text);
  const level = text.endsWith('%') || n > 1 ? n / 100 : n;
  if (!(level > 0 && level < 1)) throw new InputError(`expected a level like 0.95 or 95%, got "${value}"`, { field: '--level' });
  return level;
}

function render(e: Estimate): string {
  const rows = Object.entries(e.models).map(([model, m]) => [
    model, formatCount(Math.round(m.requests)), formatCredits(m.credits), formatCredits(m.low), formatCredits(m.high), formatCredits(m.credits_per_request),
  ]);
  rows.push(['total', formatCount(Math.round(e.total.requests)), formatCredits(e.total.credits), formatCredits(e.total.low), formatCredits(e.total.high), '']);
  const what = e.forecast_for.volume
    ? `${formatCount(e.forecast_for.volume.requests)} requests like ${e.suite.name}'s${e.forecast_for.volume.per ? ` per ${e.forecast_for.volume.per}` : ''}`
    : `one run of ${e.suite.name} (${formatCount(e.forecast_for.requests)} requests${e.forecast_for.repeat > 1 ? `, repeat ${e.forecast_for.repeat}` : ''}${e.forecast_for.shard ? `, shard ${e.forecast_for.shard}` : ''})`;
  const lines = [
    `forecast for ${what}: ${formatCredits(e.total.credits)} credits, ${Math.round(e.level * 100)}% interval ${formatCredits(e.total.low)} – ${formatCredits(e.total.high)}`,
    '',
    renderTable(['model', 'requests', 'credits', 'low', 'high', 'per request'], rows),
    '',
    `sample: ${e.sample.requests} of ${e.sample.planned_requests} requests (at most ${e.sample.max_per_model} per model), ${e.sample.status}, spent ${formatCredits(e.sample_credits_used)} credits → ${e.sample.run_dir}`,
  ];
  if (e.total.credits > 0 && (e.total.high - e.total.credits) / e.total.credits > 0.5) {
    lines.push(`the interval is wide: a larger sample (--sample ${e.sample.max_per_model * 2}) narrows it`);
  }
  for (const model of e.unestimated) lines.push(`warning: no answer of ${model} in the sample had known credits; it is not in the total`);
  return lines.join('\n');
}

export function estimateCommand(io: CliIo, setExit: (code: ExitCode) => void): CommandModule {
  return {
    command: 'estimate <suite>',
    describe: 'forecast the credits of a suite or a traffic volume, from a small real sample',
    builder: (y) =>
      sendFlags(y)
        .option('sample', { type: 'number', default: DEFAULT_SAMPLE, describe: 'requests per model the sample may send (cases and thread turns, spread over the suite)', group: 'Estimate:' })
        .option('level', { type: 'string', describe: 'interval level (default 0.95; also 95 or 95%)', group: 'Estimate:' })
        .option('requests', { type: 'number', describe: 'forecast this many requests drawn like the suite\'s mix, instead of one run', group: 'Estimate:' })
        .option('per', { type: 'string', describe: 'the period --requests counts in, for the output (e.g. day)', group: 'Estimate:' })
        .option('repeat', { type: 'number', default: 1, describe: 'forecast a run with every case and thread K times', group: 'Plan:' })
        .option('max-credits', { type: 'number', describe: 'the most the sample itself may spend (exit 3 when reached)', group: 'Credits:' })
        .option('out', { type: 'string', describe: 'the sample\'s run directory (default reports/<suite>-estimate-<timestamp>)', group: 'Output:' })
        .option('json', { type: 'boolean', default: false, describe: 'print the estimate as JSON (also written to estimate.json)', group: 'Output:' })
        .example('$0 estimate suites/demo.yaml', 'forecast one run of the demo from at most 5 requests per model')
        .example('$0 estimate suites/demo.yaml --repeat 10 --sample 8 --json', 'ten repeats, a larger sample, JSON out')
        .example('$0 estimate suites/demo.yaml --requests 20000 --per day', 'daily cost of 20 000 requests like the suite')
        .example('$0 estimate suites/demo.yaml --rate 20 --duration 10m', 'what a 10-minute load test at 20 req/s will cost')
        .example('KBBENCH_API_KEY=… $0 estimate faq.csv --base-url https://api.example.com --max-credits 0.5', 'against the live service, the sample capped at 0.5 credits'),
    handler: async (argv) => {
      const a = argv as Record<string, unknown>;
      const options = toSessionOptions(a, io.env, process.cwd());
      const quiet = argv.quiet === true || argv.json === true;
      // The sample is a run: the same embedded service, signals and progress line as `run`.
      await withSessionConsole(io, { label: 'kbbench estimate: sampling', quiet, apiKey: options.apiKey }, async (hooks, settle) => {
        const estimate = await estimateSuite({
          options,
          samplePerModel: positive(a.sample as number, 'sample', { integer: true }) ?? DEFAULT_SAMPLE,
          level: parseLevel(a.level as string | undefined),
          ...(a.requests !== undefined ? { requests: positive(a.requests as number, 'requests', { integer: true })! } : {}),
          ...(typeof a.per === 'string' ? { per: a.per } : {}),
          hooks,
        });
        settle();
        io.out(argv.json === true ? JSON.stringify(estimate, null, 2) : render(estimate));
        setExit(estimate.sample.status === 'completed' ? EXIT.ok : EXIT.stopped);
      });
    },
  };
}
