// The console's model comparison: each pair's differences with intervals and verdicts, then the flaky list.
import type { FlakyList, Summary } from '../domain/summary.js';
import { modelLabel } from './format.js';
import { DEGRADES_TITLE, degradingWords } from './load-words.js';
import { CLASS_TITLES, classEntryWords, intervalWords, metricLine, PAIR_METRICS, powerWords } from './model-pairs-text.js';

/** Pairs shown on the console; report.html and summary.json have them all. */
const PAIRS_SHOWN = 6;
const FLAKY_SHOWN = 10;

export function pairLines(summary: Summary): string[] {
  const pairs = summary.model_pairs ?? [];
  if (pairs.length === 0) return [];
  const lines = [`models compared (b − a on the questions both answered; ${intervalWords(pairs.length)}):`];
  for (const pair of pairs.slice(0, PAIRS_SHOWN)) {
    lines.push(`  ${modelLabel(pair.b)} vs ${modelLabel(pair.a)} (${pair.questions} questions)`);
    for (const { key, name, unit } of PAIR_METRICS) {
      const metric = pair[key];
      if (metric) lines.push(`    ${name.padEnd(14)} ${metricLine(pair, metric, unit)}`);
    }
    const power = powerWords(pair);
    if (power) lines.push(`    ${''.padEnd(14)} ${power}`);
  }
  if (pairs.length > PAIRS_SHOWN) lines.push(`  … ${pairs.length - PAIRS_SHOWN} more pairs in summary.json and report.html`);
  return lines;
}

/** The flaky list (answered repeats disagreed), the questions that failed to answer (request errors), those that degrade under load: three classes, never one. */
export function flakyLines(summary: Summary): string[] {
  return [
    ...classLines(summary.flaky, CLASS_TITLES.flaky),
    ...classLines(summary.failed_to_answer, CLASS_TITLES.failed_to_answer),
    ...degradesLines(summary),
  ];
}

function degradesLines(summary: Summary): string[] {
  const list = summary.degrades_under_load;
  if (!list || list.total === 0) return [];
  const lines = [`${DEGRADES_TITLE}: ${list.total} case × model of ${list.tested} tested`];
  for (const q of list.shown.slice(0, FLAKY_SHOWN)) lines.push(`  ${degradingWords(q)}`);
  if (list.total > FLAKY_SHOWN) lines.push(`  … ${list.total - FLAKY_SHOWN} more in summary.json`);
  return lines;
}

function classLines(list: FlakyList | undefined, title: string): string[] {
  if (!list || list.total === 0) return [];
  const lines = [`${title}: ${list.total} case × model`];
  for (const f of list.shown.slice(0, FLAKY_SHOWN)) lines.push(`  ${classEntryWords(f)}`);
  if (list.total > FLAKY_SHOWN) lines.push(`  … ${list.total - FLAKY_SHOWN} more in summary.json`);
  return lines;
}
