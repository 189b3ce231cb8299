// `kbbench estimate <suite>`: the credits (and money) a run or a volume of traffic will spend, from a
// small real sample or from runs already made.
import type { CommandModule } from 'yargs';
import { estimateSuite, type Estimate } from '../../estimate/estimate.js';
import type { SampleSize } from '../../credits/sample-plan.js';
import { InputError } from '../../domain/errors.js';
import { formatCredits, formatCount } from '../../report/format.js';
import { renderTable } from '../../report/console-summary.js';
import { EXIT, type ExitCode } from '../exit.js';
import type { CliIo } from '../io.js';
import { parseList, positive } from '../parse.js';
import { withSessionConsole } from '../session-console.js';
import { runCredentials } from '../../session/redact-sample.js';
import { sendFlags } from './run-flags.js';
import { toSessionOptions } from './run-config-of.js';

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

/** `--sample 8` (requests per model) or `--sample 10%` (a share of the distinct items). */
export function parseSampleSize(value: string | number | undefined): SampleSize {
  if (value === undefined) return { perModel: DEFAULT_SAMPLE };
  const text = String(value).trim();
  if (text.endsWith('%')) {
    const percent = Number(text.slice(0, -1));
    if (!(percent > 0 && percent <= 100)) throw new InputError(`expected a share above 0% and at most 100%, got "${value}"`, { field: '--sample' });
    return { percent };
  }
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new InputError(`expected a whole number ≥ 1 of requests per model, or a share such as 10%, got "${value}"`, { field: '--sample' });
  return { perModel: n };
}

const money = (amount: number | undefined, currency: string | null): string => (amount === undefined ? '' : `${Number(amount.toPrecision(4))}${currency ? ` ${currency}` : ''}`);

/** A larger sample than the one taken, never a smaller one; with --from, more questions. */
export function adviceFor(e: Pick<Estimate, 'sample' | 'from' | 'forecast_for'>): string | null {
  const questions = e.forecast_for.volume ? "more questions in the suite narrow it: its questions stand for the traffic's" : null;
  // A sample of every item cannot grow: only more questions can narrow a volume's interval.
  if (e.sample && e.sample.requests >= e.sample.planned_requests) return questions;
  if (e.sample) {
    const percent = /^([\d.]+)% /.exec(e.sample.size);
    if (percent) {
      const now = Number(percent[1]);
      return now >= 100 ? null : `a larger sample (--sample ${Math.min(100, now * 2)}%) narrows it`;
    }
    const perModel = /^(\d+) requests per model/.exec(e.sample.size);
    return perModel ? `a larger sample (--sample ${Number(perModel[1]) * 2}) narrows it` : null;
  }
  return e.from ? questions : null;
}

function render(e: Estimate): string {
  const currency = e.money?.currency ?? null;
  const level = `${Math.round(e.level * 100)}%`;
  const rows = Object.entries(e.models).map(([model, m]) => {
    const cash = e.money?.models[model];
    return [
      model, formatCount(Math.round(m.requests)), formatCredits(m.credits), formatCredits(m.low), formatCredits(m.high), formatCredits(m.credits_per_request),
      ...(e.money ? [money(cash?.amount, currency), money(cash?.low, currency), money(cash?.high, currency)] : []),
    ];
  });
  const totalLabel = e.forecast_for.volume ? "total (the suite's split)" : 'total';
  const cashTotal = e.money?.total;
  rows.push([
    totalLabel, formatCount(Math.round(e.total.requests)), formatCredits(e.total.credits), formatCredits(e.total.low), formatCredits(e.total.high), '',
    ...(cashTotal ? [money(cashTotal.amount, currency), money(cashTotal.low, currency), money(cashTotal.high, currency)] : []),
  ]);
  const volume = e.forecast_for.volume;
  const what = volume
    ? `${formatCount(volume.requests)} requests like those of ${e.suite.name}${volume.per ? ` per ${volume.per}` : ''}, each model taking all of them`
    : `one run of ${e.suite.name} (${formatCount(e.forecast_for.requests)} requests${e.forecast_for.repeat > 1 ? `, repeat ${e.forecast_for.repeat}` : ''}${e.forecast_for.shard ? `, shard ${e.forecast_for.shard}` : ''})`;
  const lines = [
    `forecast for ${what}: ${volume ? 'per model below' : `${formatCredits(e.total.credits)} credits, ${level} interval ${formatCredits(e.total.low)} – ${formatCredits(e.total.high)}`}`,
    volume
      ? `the ${level} interval is for traffic of new questions like the suite's (its questions a sample of them, a thread counting once)`
      : `the ${level} interval is for the same suite run again (its questions known; a volume of new questions, --requests N, is wider)`,
    ...(e.forecast_for.load_not_counted
      ? [`note: ${e.forecast_for.load_not_counted}, so this is one pass of the plan, not the load test's spend: estimate at the rate you expect (--rate R --duration D) or a volume (--requests N)`]
      : []),
    '',
    renderTable(['model', 'requests', 'credits', `${level} low`, `${level} high`, 'per request', ...(e.money ? ['money', `money ${level} low`, `money ${level} high`] : [])], rows),
    '',
  ];
  if (e.sample) {
    lines.push(`sample: ${e.sample.requests} of ${e.sample.planned_requests} requests (${e.sample.size}), ${e.sample.status}, spent ${formatCredits(e.sample_credits_used)} credits → ${e.sample.run_dir}`);
  }
  if (e.from) lines.push(`from ${e.from.run_dirs.length} run(s), nothing sent: ${e.from.items_matched} of ${e.from.items_planned} planned items observed (${formatCount(e.from.requests)} requests)`);
  if (e.runway) {
    const r = e.runway;
    const per = Object.entries(r.models).map(([model, x]) => `${model} ${x.lasts ?? '∞'}`).join(', ');
    lines.push(`runway: ${formatCredits(r.balance)} credits (${r.balance_source}) last ${r.total.lasts ?? '∞'} ${r.unit}(s) at the suite's split; each model alone: ${per}`);
  }
  const advice = adviceFor(e);
  if (advice !== null && e.total.credits > 0 && (e.total.high - e.total.credits) / e.total.credits > 0.5) lines.push(`the interval is wide: ${advice}`);
  for (const model of e.unestimated) lines.push(`warning: no answer of ${model} had known credits; it is not in the total`);
  return lines.join('\n');
}

export function estimateCommand(io: CliIo, setExit: (code: ExitCode) => void): CommandModule {
  return {
    command: 'estimate <suite>',
    describe: 'forecast the credits (and money) of a suite or a traffic volume, from a small real sample or from earlier runs',
    builder: (y) =>
      sendFlags(y)
        .option('sample', { type: 'string', describe: 'sample size: N requests per model (default 5), or P% of the distinct items (cases and thread turns per model, repeats not counted)', group: 'Estimate:' })
        .option('from', { type: 'string', array: true, describe: 'forecast from these run directories instead of a sample: nothing is sent', group: 'Estimate:' })
        .option('level', { type: 'string', describe: 'interval level (default 0.95; also 95 or 95%)', group: 'Estimate:' })
        .option('requests', { type: 'number', describe: 'forecast this many requests like the suite\'s mix, each model taking all of them', group: 'Estimate:' })
        .option('per', { type: 'string', describe: 'the period --requests counts in (e.g. month): runway is counted in it', group: 'Estimate:' })
        .option('credit-price', { type: 'number', describe: 'price of one credit: forecasts in money too', group: 'Estimate:' })
        .option('currency', { type: 'string', describe: 'the currency of --credit-price (e.g. EUR), only echoed', group: 'Estimate:' })
        .option('balance', { type: 'number', describe: 'the account\'s remaining credits for the runway (default: the lowest credits_remaining observed)', group: 'Estimate:' })
        .option('repeat', { type: 'number', default: 1, describe: 'forecast a run with every case and thread K times', group: 'Plan:' })
        .option('max-credits', { type: 'number', describe: 'the most the sample itself may spend (exit 3 when reached)', group: 'Credits:' })
        .option('out', { type: 'string', describe: 'the sample\'s run directory (default reports/<suite>-estimate-<timestamp>)', group: 'Output:' })
        .option('json', { type: 'boolean', default: false, describe: 'print the estimate as JSON (also written to estimate.json)', group: 'Output:' })
        .example('$0 estimate suites/demo.yaml', 'forecast one run of the demo from at most 5 requests per model')
        .example('$0 estimate suites/demo.yaml --repeat 4 --sample 10%', 'four repeats, from a sample of a tenth of the distinct items')
        .example('$0 estimate suites/demo.yaml --from reports/demo-run --repeat 4', 'forecast from a run already made, sending nothing')
        .example('$0 estimate suites/demo.yaml --requests 50000 --per month --credit-price 0.02 --currency EUR', 'monthly cost of 50 000 requests on each model, in money')
        .example('$0 estimate suites/demo.yaml --rate 20 --duration 10m', 'what a 10-minute load test at 20 req/s will cost')
        .example('KBBENCH_API_KEY=… $0 estimate faq.csv --base-url https://api.example.com --max-credits 0.5', 'against the live service, the sample capped at 0.5 credits'),
    handler: async (argv) => {
      const a = argv as Record<string, unknown>;
      const from = parseList(a.from as string[] | undefined);
      if (from.length > 0 && a.sample !== undefined) throw new InputError('--from forecasts from runs already made; --sample sizes a new sample: give one of them', { field: '--sample' });
      const options = toSessionOptions(a, io.env, io.cwd);
      const quiet = argv.quiet === true || argv.json === true;
      const request = {
        options,
        sample: parseSampleSize(a.sample as string | undefined),
        level: parseLevel(a.level as string | undefined),
        ...(a.requests !== undefined ? { requests: positive(a.requests as number, 'requests', { integer: true })! } : {}),
        ...(typeof a.per === 'string' ? { per: a.per } : {}),
        ...(from.length > 0 ? { from } : {}),
        ...(a['credit-price'] !== undefined ? { creditPrice: positive(a['credit-price'] as number, 'credit-price', { allowZero: true })! } : {}),
        ...(typeof a.currency === 'string' ? { currency: a.currency } : {}),
        ...(a.balance !== undefined ? { balance: positive(a.balance as number, 'balance', { allowZero: true })! } : {}),
      };
      // The sample is a run: the same embedded service, signals and progress line as `run`.
      await withSessionConsole(io, { label: 'kbbench estimate: sampling', quiet, apiKey: options.target.apiKey, apiKeyFile: a.apiKeyFile as string | undefined, credentials: runCredentials(options, io.env) }, async (hooks, settle) => {
        const estimate = await estimateSuite({ ...request, hooks });
        settle();
        io.out(argv.json === true ? JSON.stringify(estimate, null, 2) : render(estimate));
        setExit(estimate.sample === null || estimate.sample.status === 'completed' ? EXIT.ok : EXIT.stopped);
      });
    },
  };
}
