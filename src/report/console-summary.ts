// The plain-text summary the CLI prints after a run: totals, a table per model, thresholds.
import { judgeShareWords } from '../metrics/goodput.js';
import { agreementLine, calibrationLines, groupOrder } from './agreement-text.js';
import type { Summary } from '../domain/summary.js';
import { reusedTimingsApart } from '../metrics/reused-answers.js';
import { judgedNothing } from '../metrics/summarizer.js';
import { renderConsoleLoad } from './console-load.js';
import { flakyLines, pairLines } from './console-models.js';
import { formatCount, formatCredits, formatDurationMs, formatMs, formatRate, formatThresholdValue, modelLabel, thresholdValueText } from './format.js';

export interface ConsoleSummaryOptions {
  /** Shown in the first line when given. */
  suiteName?: string;
  /** Where the run's files are, named after the list of failed items. */
  runDir?: string;
}

// Every figure's unit in its header (ms, credits): the cells are bare numbers, to line up; a rate's cell carries its %.
const HEADERS = ['model', 'requests', 'errors', 'pass rate', '95% CI', 'TTFC p50 ms', 'TTFC p95 ms', 'latency p50 ms', 'latency p95 ms', 'credits'];

const pct = (x: number): string => `${(x * 100).toFixed(0)}%`;

function modelRows(summary: Summary): string[][] {
  return Object.entries(summary.models).map(([model, m]) => [
    modelLabel(model),
    formatCount(m.requests),
    formatCount(m.errors),
    formatRate(m.pass_rate),
    m.pass_rate_ci95 ? `${pct(m.pass_rate_ci95[0])}–${pct(m.pass_rate_ci95[1])}` : '–',
    formatMs(m.ttfc_ms?.p50),
    formatMs(m.ttfc_ms?.p95),
    formatMs(m.latency_ms?.p50),
    formatMs(m.latency_ms?.p95),
    formatCredits(m.credits_used),
  ]);
}

/** Left-aligns the first column, right-aligns numbers, two spaces between columns. */
export function renderTable(headers: readonly string[], rows: readonly string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(headers), rule, ...rows.map(line)].join('\n');
}

/** --reuse-answers and regrade: what was not asked, what it saved, and what it took when it was asked (out of this run's timings). */
function reusedLine(summary: Summary): string {
  const r = summary.reused;
  if (r === undefined) return '';
  const unknown = r.credits_saved_unknown > 0 ? ` (+${formatCount(r.credits_saved_unknown)} of unknown cost)` : '';
  const ttfc = r.ttfc_ms ? `, their TTFC p50 ${formatDurationMs(r.ttfc_ms.p50)} when asked` : '';
  const apart = reusedTimingsApart(r) ? `, out of the timings${ttfc}` : '';
  return `reused ${formatCount(r.answers)} answers of ${r.from.join(', ')} (not asked${apart}): credits spent now ${formatCredits(summary.totals.credits_used)}, saved ${formatCredits(r.credits_saved)}${unknown}`;
}

/** How many of the dropped starts were sent late, and their share of the planned starts. */
function droppedDetail(t: Summary['totals']): string {
  const parts = [
    (t.dropped_late ?? 0) > 0 ? `${formatCount(t.dropped_late ?? 0)} sent over 1 s late` : '',
    t.dropped_rate !== undefined && t.dropped_rate !== null ? `${formatRate(t.dropped_rate)} of planned starts` : '',
  ].filter(Boolean);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

function headline(summary: Summary, options: ConsoleSummaryOptions): string[] {
  const t = summary.totals;
  const extras = [
    t.skipped > 0 ? `skipped ${formatCount(t.skipped)}` : '',
    t.dropped > 0 ? `dropped ${formatCount(t.dropped)}${droppedDetail(t)}` : '',
    (t.interrupted ?? 0) > 0 ? `interrupted ${formatCount(t.interrupted ?? 0)} (cut at the graceful stop or by a second signal; may have been charged)` : '',
    (t.warmup ?? 0) > 0 ? `warmup ${formatCount(t.warmup)} (sent, left out of these figures)` : '',
    reusedLine(summary),
    t.credits_unknown > 0 ? `credits unknown for ${formatCount(t.credits_unknown)} answers (no usage report)` : '',
    failedCredits(t),
    ...gateExtras(summary),
    t.unreadable_lines > 0 ? `unreadable result lines ${formatCount(t.unreadable_lines)}` : '',
  ].filter(Boolean);
  const remaining = t.credits_remaining !== null ? ` (remaining ${formatCredits(t.credits_remaining)})` : '';
  return [
    verdictLine(summary, options),
    `requests ${formatCount(t.requests)}  ok ${formatCount(t.ok)}  errors ${formatCount(t.errors)}  ` +
      `pass rate ${formatRate(t.pass_rate)}  credits ${formatCredits(t.credits_used)}${remaining}  ` +
      `duration ${formatDurationMs(t.duration_ms)}`,
    ...(extras.length > 0 ? [extras.join('  ')] : []),
    ...gradingLines(summary),
    ...peopleLines(summary),
    ...throughput(t),
  ];
}

/** Answers and grading apart: what the answers cost, who graded, what grading cost, what was not judged. */
function gradingLines(summary: Summary): string[] {
  const g = summary.grading;
  const sample = summary.judge_sample;
  // --judge-sample: said once beside every figure of answer quality it affects (pass rates, goodput).
  const share = sample ? [`${judgeShareWords(sample.share)}: ${formatCount(sample.not_sampled)} answers not sampled, out of the pass rates and never good answers`] : [];
  if (g === undefined) return share;
  const t = summary.totals;
  const notJudged = (t.not_judged ?? 0) > 0 ? `  not judged ${formatCount(t.not_judged)} (left out of the pass rate)` : '';
  return [
    `answers ${formatCredits(t.answer_credits_used ?? t.credits_used - t.check_credits_used)} credits  grading ${formatCredits(g.credits_used)} credits${g.tokens > 0 ? ` + ${formatCount(g.tokens)} grader tokens` : ''}${notJudged}`,
    ...g.graders.map((x) => `  grader ${x.grader}: ${formatCount(x.checks)} checks${x.cached ? ` (${formatCount(x.cached)} from the grader-verdict cache, no call)` : ''}, ${formatCount(x.not_judged)} not judged, ${formatCredits(x.credits_used)} credits${x.tokens > 0 ? `, ${formatCount(x.tokens)} tokens` : ''}`),
    ...share,
  ];
}

/** People's labels and the grader's standing: which model-graded checks gated the verdict, and how far people agree. */
function peopleLines(summary: Summary): string[] {
  const lines = summary.grader_calibration ? calibrationLines(summary.grader_calibration) : [];
  const a = summary.agreement;
  if (a !== undefined) {
    lines.push(`people labelled ${formatCount(a.labelled_answers)} answers (labels.csv): their verdict is the answer's`);
    for (const group of groupOrder(a.groups)) lines.push(`  ${agreementLine(group, a.groups[group]!)}`);
  }
  return lines;
}

function failedCredits(t: Summary['totals']): string {
  const f = t.failed_requests_credits;
  if (f === undefined || f.may_be_charged + f.not_charged === 0) return '';
  return `failed requests ${formatCount(f.may_be_charged + f.not_charged)} (may have been charged: ${formatCount(f.may_be_charged)}; not charged: ${formatCount(f.not_charged)})`;
}

function gateExtras(summary: Summary): string[] {
  const c = summary.gates.checks;
  return [
    c.covered > 0 ? `failed ${formatCount(c.covered)} judged by pass_rate` : '',
    c.expected_failures > 0 ? `expected failures ${formatCount(c.expected_failures)}` : '',
    c.unexpected_passes > 0 ? `unexpectedly passing ${formatCount(c.unexpected_passes)} (expect_fail no longer holds)` : '',
    summary.verdict === 'incomplete' ? incompleteWhy(summary) : '',
    (c.not_gated ?? 0) > 0 ? `failed ${formatCount(c.not_gated ?? 0)} in rates above slo_max_rate (probing past capacity: reported, not failed)` : '',
    summary.gates.failed.length > 0 ? `failed gates: ${summary.gates.failed.join(', ')}${summary.gates.no_slo_rate ? ' (no rate met every SLO)' : ''}` : '',
  ];
}

function incompleteWhy(summary: Summary): string {
  if (summary.totals.missing) return `incomplete: ${formatCount(summary.totals.missing)} planned answers have no result line (results.ndjson was cut)`;
  if (summary.status === 'completed' && judgedNothing(summary.totals)) return 'incomplete: no answer was judged';
  if (summary.status === 'completed' && (summary.gates.incomplete?.length ?? 0) > 0) return `incomplete: ${formatCount(summary.totals.not_judged ?? 0)} answers could not be judged (their grader failed)`;
  return 'incomplete: the run did not finish';
}

/** Starts and requests side by side: a thread start sends all its turns, so the two rates differ. */
function throughput(t: Summary['totals']): string[] {
  if (t.starts_per_s === null || t.starts_per_s === undefined || t.requests_per_s === null) return [];
  return [`starts ${formatCount(t.starts)} (${t.starts_per_s}/s)  requests ${formatCount(t.requests)} (${t.requests_per_s}/s)  (a start is a case, or a whole thread)`];
}

/** The first failed items after the table, and where every failure is. */
function failureLines(summary: Summary, options: ConsoleSummaryOptions): string[] {
  const failures = summary.failures;
  if (failures === undefined || failures.total === 0) return [];
  const rows = failures.shown.map((f) => [f.item_id, modelLabel(f.model), oneLine(f.detail)]);
  // Text columns, so left-aligned (renderTable right-aligns its number columns).
  const widths = [0, 1].map((i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  const lines = [
    `failed items: ${formatCount(failures.total)}${failures.total > failures.shown.length ? ` (the first ${failures.shown.length})` : ''}`,
    ...rows.map(([item = '', model = '', why = '']) => `  ${item.padEnd(widths[0]!)}  ${model.padEnd(widths[1]!)}  ${why}`),
  ];
  const where = options.runDir ?? 'the run directory';
  lines.push(`every failed item: ${where}/samples.csv (pass = false) and junit.xml; per case: cases.csv`);
  return lines;
}

/** A detail on one line of at most 120 characters: the table must not wrap. */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 119)}…` : flat;
}

function thresholdLines(summary: Summary): string[] {
  if (summary.thresholds.length === 0) return [];
  return [
    'thresholds:',
    ...summary.thresholds.map((t) => {
      // `metric` is the key as written (`latency_ms{model:x}`), scope included: print it once.
      const scope = Object.entries(t.scope).map(([k, v]) => `${k}:${v}`).join(',');
      const metric = t.metric.includes('{') || !scope ? t.metric : `${t.metric}{${scope}}`;
      if (t.not_judged !== undefined) return `  --   ${metric} ${t.expression} (${thresholdValueText(t)})`;
      return `  ${t.pass ? 'ok  ' : 'FAIL'} ${metric} ${t.expression} (value ${formatThresholdValue(t.value)})`;
    }),
  ];
}

/** Plain text (no colour codes): the CLI decides how to decorate it. Times are in ms. */
/** The one line `--quiet` keeps: suite, run id, status and verdict. */
export function verdictLine(summary: Summary, options: ConsoleSummaryOptions = {}): string {
  const suite = options.suiteName ? `${options.suiteName} · ` : '';
  const ungated = Object.entries(summary.grader_calibration?.types ?? {}).filter(([, t]) => !t.gating).map(([type, t]) => `${type} (${t.reason})`);
  const why = ungated.length > 0 ? ` · not gating: ${ungated.join(', ')}` : '';
  return `${suite}run ${summary.run_id} · ${summary.status} · verdict ${summary.verdict.toUpperCase()}${why}`;
}

export function renderConsoleSummary(summary: Summary, options: ConsoleSummaryOptions = {}): string {
  const parts = [headline(summary, options).join('\n')];
  const rows = modelRows(summary);
  if (rows.length > 0) parts.push(renderTable(HEADERS, rows));
  const pairs = pairLines(summary);
  if (pairs.length > 0) parts.push(pairs.join('\n'));
  const flaky = flakyLines(summary);
  if (flaky.length > 0) parts.push(flaky.join('\n'));
  const load = renderConsoleLoad(summary, renderTable);
  if (load) parts.push(load);
  const failed = failureLines(summary, options);
  if (failed.length > 0) parts.push(failed.join('\n'));
  const thresholds = thresholdLines(summary);
  if (thresholds.length > 0) parts.push(thresholds.join('\n'));
  return `${parts.join('\n\n')}\n`;
}
