// junit.xml: a testsuite per model, a testcase per case × model (per turn for threads), streamed, for CI systems.
import { RUN_FILES } from '../store/run-dir.js';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { CaseCell, RequestStats } from '../domain/summary.js';
import { cellStatus, type CaseStatus, type CaseStatusCounts, type CaseTable, type CaseTableRow } from '../metrics/case-table.js';
import type { AnswerEvidence, CellEvidence, Evidence } from './evidence.js';
import { modelLabel } from './format.js';
import type { ReportInput, ReportWriter, UnsentItem } from './types.js';
import { incompleteReason } from '../metrics/gates.js';
import { streamFileAtomic } from '../store/atomic-file.js';

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

export { cellStatus };

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

function renderOutcome(status: CaseStatus, cell: CaseCell, evidence: CellEvidence | undefined): string {
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

/**
 * What the verdict made of the run's failed checks. JUnit's red must be kbbench's exit 1: when the
 * `checks` gate did not fail the run (its failures judged through a pass_rate threshold, or in a
 * sweep's rates above slo_max_rate, or the gate not asked), a failed testcase is written as a pass
 * with a note (a property and system-out), and a verdict that failed on another gate is one failed
 * testcase of its own.
 */
export interface JunitVerdict {
  checksGated: boolean;
  verdict: string;
  failedGates: readonly string[];
}

const ALL_GATED: JunitVerdict = { checksGated: true, verdict: 'pass', failedGates: [] };

function notGatedNote(status: CaseStatus, cell: CaseCell, evidence: CellEvidence | undefined): string {
  const words = status === 'failure' ? describeFailure(cell, evidence?.firstFailure ?? null) : describeError(cell, evidence?.firstError ?? null);
  return `not gated (the verdict does not fail on it): ${words}`;
}

function renderTestcase(suiteName: string, row: CaseTableRow, evidence: Evidence, verdict: JunitVerdict): string {
  const { model, cell } = row;
  // Only the cases report.html can show keep evidence (bounded): the others say what counts say.
  const cellEvidence = evidence.cells.get(row.key)?.get(model);
  const status = cellStatus(cell);
  const answer = cellEvidence?.answers[0];
  const quiet = !verdict.checksGated && (status === 'failure' || status === 'error');
  const note = quiet ? notGatedNote(status, cell, cellEvidence) : null;
  const text = [note, answer?.text].filter((t): t is string => Boolean(t)).join('\n\n');
  const out = text ? `      <system-out>${xmlEscape(text)}</system-out>\n` : '';
  const attrs = `name="${xmlAttr(row.label)}" classname="${xmlAttr(`${suiteName}.${modelLabel(model)}`)}" time="${seconds(cell.latency_ms_sum)}"`;
  const properties = quiet ? `      <properties>\n        <property name="kbbench.outcome" value="${status}"/>\n        <property name="kbbench.gated" value="false"/>\n      </properties>\n` : '';
  const body = properties + (quiet ? '' : renderOutcome(status, cell, cellEvidence)) + out;
  return body === '' ? `    <testcase ${attrs}/>\n` : `    <testcase ${attrs}>\n${body}    </testcase>\n`;
}

/** A table's counts as the verdict reads them: failures it does not gate are passes with a note. */
function gatedCounts(counts: CaseStatusCounts, verdict: JunitVerdict): CaseStatusCounts {
  if (verdict.checksGated) return counts;
  return { ...counts, passed: counts.passed + counts.failure + counts.error, failure: 0, error: 0 };
}

/** The verdict's own testcase, when it failed on a gate no testcase shows (thresholds, dropped, a sweep with no SLO-meeting rate). */
function verdictChunk(suiteName: string, verdict: JunitVerdict): string | null {
  if (verdict.checksGated || verdict.verdict !== 'fail') return null;
  const counts = { tests: 1, passed: 0, failure: 1, error: 0, skipped: 0, latencyMsSum: 0 };
  const message = `verdict FAIL: failed gates: ${verdict.failedGates.join(', ')}`;
  return `  <testsuite name="${xmlAttr(`${suiteName} · verdict`)}" ${countAttrs(counts)}>\n    <testcase name="verdict" classname="${xmlAttr(`${suiteName}.verdict`)}" time="0.000">\n      <failure message="${xmlAttr(message)}" type="gate">${xmlEscape(message)}</failure>\n    </testcase>\n  </testsuite>\n`;
}

function countAttrs(counts: CaseStatusCounts): string {
  return `tests="${counts.tests}" failures="${counts.failure}" errors="${counts.error}" skipped="${counts.skipped}" time="${seconds(counts.latencyMsSum)}"`;
}

/**
 * junit.xml piece by piece: a testsuite per model, its testcases read from the case table (on disk
 * past the in-memory limit), so a million testcases never form one string. The counts every
 * opening tag carries are the table's, known before its rows are read.
 */
/** Per-tag figures as properties: pass rate, latency p50/p95 and credits of each suite tag. */
function tagProperties(tags: Readonly<Record<string, RequestStats>> | undefined): string {
  if (tags === undefined || Object.keys(tags).length === 0) return '';
  const lines = Object.entries(tags).flatMap(([tag, s]) => [
    ['requests', String(s.requests)],
    ['pass_rate', s.pass_rate === null ? '' : String(s.pass_rate)],
    ['latency_ms.p50', s.latency_ms === null ? '' : String(s.latency_ms.p50)],
    ['latency_ms.p95', s.latency_ms === null ? '' : String(s.latency_ms.p95)],
    ['credits_used', String(s.credits_used)],
  ].map(([name, value]) => `    <property name="${xmlAttr(`tag:${tag}.${name}`)}" value="${xmlAttr(value ?? '')}"/>\n`));
  return `  <properties>\n${lines.join('')}  </properties>\n`;
}

export async function* junitXmlChunks(
  suiteName: string, table: CaseTable, evidence: Evidence, unsent?: UnsentItems, tags?: Readonly<Record<string, RequestStats>>, verdict: JunitVerdict = ALL_GATED,
): AsyncGenerator<string> {
  const all = { tests: 0, passed: 0, failure: 0, error: 0, skipped: 0, latencyMsSum: 0 };
  // Counted in a first pass over the lazy plan, so the opening tags carry them and nothing is held.
  let unsentCount = 0;
  if (unsent) for await (const _item of unsent.items()) unsentCount++;
  all.tests += unsentCount;
  all.skipped += unsentCount;
  const verdictPart = verdictChunk(suiteName, verdict);
  if (verdictPart !== null) {
    all.tests += 1;
    all.failure += 1;
  }
  for (const model of table.models) {
    const t = gatedCounts(table.totals(model), verdict);
    all.tests += t.tests;
    all.passed += t.passed;
    all.failure += t.failure;
    all.error += t.error;
    all.skipped += t.skipped;
    all.latencyMsSum += t.latencyMsSum;
  }
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xmlAttr(`kbbench ${suiteName}`)}" ${countAttrs(all)}>\n${tagProperties(tags)}`;
  for (const model of table.models) {
    yield `  <testsuite name="${xmlAttr(`${suiteName} · ${modelLabel(model)}`)}" ${countAttrs(gatedCounts(table.totals(model), verdict))}>\n`;
    let batch = '';
    for await (const row of table.rows(model)) {
      batch += renderTestcase(suiteName, row, evidence, verdict);
      // Writes of ~64 KB rather than one per testcase.
      if (batch.length >= 65_536) {
        yield batch;
        batch = '';
      }
    }
    yield `${batch}  </testsuite>\n`;
  }
  if (unsent && unsentCount > 0) yield* unsentChunks(suiteName, unsent, unsentCount);
  if (verdictPart !== null) yield verdictPart;
  yield '</testsuites>\n';
}

/** The requests a run that did not finish never sent, and why. */
export interface UnsentItems {
  items(): AsyncIterable<UnsentItem>;
  reason: string;
}

async function* unsentChunks(suiteName: string, unsent: UnsentItems, count: number): AsyncGenerator<string> {
  const counts = { tests: count, passed: 0, failure: 0, error: 0, skipped: count, latencyMsSum: 0 };
  yield `  <testsuite name="${xmlAttr(`${suiteName} · not sent`)}" ${countAttrs(counts)}>\n`;
  const skipped = `      <skipped message="${xmlAttr(`not sent: ${unsent.reason}`)}"/>\n`;
  let batch = '';
  for await (const item of unsent.items()) {
    const attrs = `name="${xmlAttr(item.label)}" classname="${xmlAttr(`${suiteName}.${modelLabel(item.model)}`)}" time="0.000"`;
    batch += `    <testcase ${attrs}>\n${skipped}    </testcase>\n`;
    if (batch.length >= 65_536) {
      yield batch;
      batch = '';
    }
  }
  yield `${batch}  </testsuite>\n`;
}

/** The whole document as one string: for tests and small tables. */
export async function renderJunitXml(suiteName: string, table: CaseTable, evidence: Evidence): Promise<string> {
  let xml = '';
  for await (const chunk of junitXmlChunks(suiteName, table, evidence)) xml += chunk;
  return xml;
}

export const junitWriter: ReportWriter = {
  fileName: RUN_FILES.junit,
  write(input: ReportInput): Promise<string> {
    // A completed run lists unsent items only when its results lack some (a cut results.ndjson).
    const lacking = input.run.status !== 'completed' || (input.summary.totals.missing ?? 0) > 0;
    const unsent = input.unsent && lacking ? { items: input.unsent, reason: incompleteReason(input.run, input.summary.totals.missing) } : undefined;
    const gates = input.summary.gates;
    const verdict: JunitVerdict = { checksGated: gates.failed.includes('checks'), verdict: input.summary.verdict, failedGates: gates.failed };
    return streamFileAtomic(join(input.runDir, this.fileName), Readable.from(junitXmlChunks(input.run.suite.name, input.cases, input.evidence, unsent, input.summary.tags, verdict)));
  },
};
