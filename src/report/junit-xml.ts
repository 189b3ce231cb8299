// junit.xml: a testsuite per model, a testcase per case × model (per turn for threads), for CI systems.
import { join } from 'node:path';
import type { CaseCell, CaseSummary, Summary } from '../domain/summary.js';
import type { AnswerEvidence, CellEvidence, Evidence } from './evidence.js';
import { getOwn } from '../metrics/own-record.js';
import { modelLabel } from './format.js';
import type { ReportInput, ReportWriter } from './types.js';
import { writeFileAtomic } from '../store/atomic-file.js';

/** XML 1.0 forbids most control characters even when escaped: drop them (and lone surrogates). */
const INVALID_XML_CHARS = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * A carriage return is written as a reference: a parser turns a raw CR (or CRLF) into LF, and an
 * answer should read back byte for byte.
 */
export function xmlEscape(value: string | number): string {
  return String(value)
    .replace(INVALID_XML_CHARS, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\r/g, '&#13;');
}

/** In an attribute a parser turns raw tabs and line breaks into spaces; references keep them. */
export function xmlAttr(value: string | number): string {
  return xmlEscape(value).replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
}

type CellStatus = 'passed' | 'failure' | 'error' | 'skipped';

/** Failed checks outrank request errors: a wrong answer is the finding CI should show first. */
export function cellStatus(cell: CaseCell): CellStatus {
  if (cell.failed > 0) return 'failure';
  if (cell.errors > 0) return 'error';
  if (cell.requests === 0 && cell.skipped > 0) return 'skipped';
  return 'passed';
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function describeFailure(cell: CaseCell, evidence: AnswerEvidence | null): string {
  const lines = [`${cell.failed} of ${cell.requests} requests failed their checks.`];
  if (evidence) {
    lines.push(`First failing answer: ${evidence.item_id} (repeat ${evidence.repeat})`);
    for (const check of evidence.checks.filter((c) => !c.pass)) lines.push(`  FAIL ${check.type}: ${check.detail}`);
    for (const check of evidence.checks.filter((c) => c.pass)) lines.push(`  pass ${check.type}: ${check.detail}`);
  }
  return lines.join('\n');
}

function describeError(cell: CaseCell, evidence: AnswerEvidence | null): string {
  const lines = [`${cell.errors} of ${cell.requests} requests ended in a request error.`];
  if (evidence) {
    lines.push(`${evidence.item_id}: outcome ${evidence.outcome}, HTTP status ${evidence.status ?? 'none'}, attempts ${evidence.attempts}`);
    if (evidence.error) lines.push(`${evidence.error.code}: ${evidence.error.message}`);
  }
  return lines.join('\n');
}

function renderOutcome(status: CellStatus, cell: CaseCell, evidence: CellEvidence | undefined): string {
  if (status === 'skipped') return '      <skipped message="not sent: its conversation could not continue"/>\n';
  if (status === 'failure') {
    const first = evidence?.firstFailure ?? null;
    const failing = first?.checks.filter((c) => !c.pass).map((c) => c.type) ?? [];
    const message = failing.length > 0 ? `failed checks: ${failing.join(', ')}` : 'answer failed';
    return `      <failure message="${xmlAttr(message)}" type="check">${xmlEscape(describeFailure(cell, first))}</failure>\n`;
  }
  if (status === 'error') {
    const first = evidence?.firstError ?? null;
    const type = first?.error?.code ?? first?.outcome ?? 'error';
    const message = first?.error?.message ?? 'request error';
    return `      <error message="${xmlAttr(message)}" type="${xmlAttr(type)}">${xmlEscape(describeError(cell, first))}</error>\n`;
  }
  return '';
}

function renderTestcase(suiteName: string, model: string, row: CaseSummary, cell: CaseCell, evidence: Evidence): string {
  const cellEvidence = evidence.cells.get(row.key)?.get(model);
  const status = cellStatus(cell);
  const answer = cellEvidence?.answers[0];
  const out = answer?.text ? `      <system-out>${xmlEscape(answer.text)}</system-out>\n` : '';
  const attrs = `name="${xmlAttr(row.label)}" classname="${xmlAttr(`${suiteName}.${modelLabel(model)}`)}" time="${seconds(cell.latency_ms_sum)}"`;
  const body = renderOutcome(status, cell, cellEvidence) + out;
  return body === '' ? `    <testcase ${attrs}/>\n` : `    <testcase ${attrs}>\n${body}    </testcase>\n`;
}

function renderSuite(suiteName: string, model: string, summary: Summary, evidence: Evidence): string {
  const rows = summary.cases.filter((row) => getOwn(row.models, model));
  const counts: Record<CellStatus, number> = { passed: 0, failure: 0, error: 0, skipped: 0 };
  let timeMs = 0;
  const testcases = rows.map((row) => {
    const cell = row.models[model]!;
    const status = cellStatus(cell);
    counts[status]++;
    timeMs += cell.latency_ms_sum;
    return renderTestcase(suiteName, model, row, cell, evidence);
  });
  const attrs = [
    `name="${xmlAttr(`${suiteName} · ${modelLabel(model)}`)}"`,
    `tests="${rows.length}"`,
    `failures="${counts.failure}"`,
    `errors="${counts.error}"`,
    `skipped="${counts.skipped}"`,
    `time="${seconds(timeMs)}"`,
  ].join(' ');
  return `  <testsuite ${attrs}>\n${testcases.join('')}  </testsuite>\n`;
}

export function renderJunitXml(suiteName: string, summary: Summary, evidence: Evidence): string {
  const models = Object.keys(summary.models);
  const suites = models.map((model) => renderSuite(suiteName, model, summary, evidence));
  const totals = summary.cases.flatMap((row) => Object.values(row.models).map(cellStatus));
  const count = (s: CellStatus): number => totals.filter((t) => t === s).length;
  const time = seconds(summary.cases.reduce((sum, row) => sum + Object.values(row.models).reduce((a, c) => a + c.latency_ms_sum, 0), 0));
  const attrs = `name="${xmlAttr(`kbbench ${suiteName}`)}" tests="${totals.length}" failures="${count('failure')}" errors="${count('error')}" skipped="${count('skipped')}" time="${time}"`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ${attrs}>\n${suites.join('')}</testsuites>\n`;
}

export const junitWriter: ReportWriter = {
  fileName: 'junit.xml',
  write(input: ReportInput): Promise<string> {
    const xml = renderJunitXml(input.run.suite.name, input.summary, input.evidence);
    return writeFileAtomic(join(input.runDir, this.fileName), xml);
  },
};
