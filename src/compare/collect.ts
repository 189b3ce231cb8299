// Streams one run's results.ndjson into what a comparison needs per item and model, never holding every answer.
import { createHash } from 'node:crypto';
import type { RunInfo } from '../domain/run.js';
import type { Sample } from '../domain/sample.js';
import { readResults } from '../store/results-reader.js';
import { RUN_FILES } from '../store/run-dir.js';
import { ItemLines } from '../store/run-integrity.js';
import { join } from 'node:path';
import { sampleCreditUnits } from '../credits/units.js';
import { poolKeyOf } from '../plan/item-id.js';

/** An item of the suite for one model, its repeats pooled: the unit compare matches across runs. */
export interface ItemDigest {
  key: string;
  ids: Set<string>;
  case_id: string | null;
  thread_id: string | null;
  turn: number | null;
  model: string;
  prompt: string | null;
  runs: number;
  passed: number;
  /**
   * Distinct answers (keyed by a digest of the whole answer, whitespace aside) → how often, from
   * which repeat first, and the answer cut to MAX_COMPARE_ANSWER_CHARS; capped (MAX_DISTINCT_TEXTS).
   */
  texts: Map<string, KeptAnswer>;
  failedChecks: string[];
  /** Per check position of the suite's assert list: how its repeats went (a check's regression is judged on it). */
  checks: CheckTally[];
  errors: string[];
  /** Timings of the answers that arrived (outcome ok), as summary.json counts them. */
  latencies: number[];
  ttfcs: number[];
  /** Credits of the requests with known credits, in integer 1e-5 units (exact sums). */
  creditUnits: number;
  creditsCount: number;
}

export interface KeptAnswer {
  count: number;
  repeat: number;
  /** The answer's first MAX_COMPARE_ANSWER_CHARS characters. */
  text: string;
  /** The whole answer's length in characters. */
  chars: number;
}

/** One check of an item across its repeats. `pass: null` (not judged) counts in neither passed nor failed. */
export interface CheckTally {
  type: string;
  passed: number;
  failed: number;
  notJudged: number;
  /** The first failing repeat's detail (cut), to name what failed. */
  detail: string | null;
}

export interface ModelTotals {
  /** Sent requests (a skipped turn was never sent). */
  requests: number;
  passed: number;
  /** Everything spent (answers and checks), in 1e-5 units: summary.json's credits_used. */
  creditUnits: number;
  /** Requests whose answer credits are known: summary.json's divisor of credits_per_request. */
  creditsKnown: number;
  /** Requests not judged (a grader failed): out of the pass rate, as in summary.json. */
  notJudged?: number;
}

export interface RunDigest {
  dir: string;
  run: RunInfo;
  samples: number;
  items: Map<string, ItemDigest>;
  models: Map<string, ModelTotals>;
}

/**
 * A live model may give a different answer every repeat; the comparison needs only the most
 * common one, so beyond this many distinct answers per item new ones are no longer kept.
 */
export const MAX_DISTINCT_TEXTS = 8;
/**
 * compare.json and compare.html show at most this much of an answer (results.ndjson keeps it
 * whole): one 31 MB answer made a 63 MB compare.html. Cut as each line is read, so a comparison
 * holds at most MAX_DISTINCT_TEXTS × this many characters per item and run.
 */
export const MAX_COMPARE_ANSWER_CHARS = 8_000;
/** Checks per item tallied by position; a suite with more checks on one question is judged on these. */
export const MAX_CHECKS_TALLIED = 64;
const MAX_DETAIL_CHARS = 300;
const MAX_LISTED = 5;

/**
 * `case:x|model:m|r2` → `case:x|model:m`: repeats (and an open loop's passes) of one question on one
 * model are one item. A failed conversation's line pools its repeats the same way.
 */
export const itemKeyOf = poolKeyOf;

/** Reads one run for a comparison; a run that records an item twice is refused (its pass rate would count it twice). */
export async function digestRun(dir: string, run: RunInfo): Promise<RunDigest> {
  const digest: RunDigest = { dir, run, samples: 0, items: new Map(), models: new Map() };
  const lines = new ItemLines();
  const results = readResults(dir);
  for await (const sample of results) {
    lines.add(sample.item_id, results.stats.line);
    digest.samples++;
    addToItem(itemOf(digest.items, sample), sample);
    addToModel(digest.models, sample);
  }
  lines.assertUnique(join(dir, RUN_FILES.results), 'compare again');
  return digest;
}

function itemOf(items: Map<string, ItemDigest>, s: Sample): ItemDigest {
  const key = itemKeyOf(s.item_id);
  let item = items.get(key);
  if (!item) {
    item = {
      key, ids: new Set(), case_id: s.case_id, thread_id: s.thread_id, turn: s.turn, model: s.model, prompt: s.prompt === undefined ? null : cutCopy(s.prompt, MAX_COMPARE_ANSWER_CHARS),
      runs: 0, passed: 0, texts: new Map(), failedChecks: [], checks: [], errors: [], latencies: [], ttfcs: [], creditUnits: 0, creditsCount: 0,
    };
    items.set(key, item);
  }
  return item;
}


function addToItem(item: ItemDigest, s: Sample): void {
  item.ids.add(s.item_id);
  item.runs++;
  if (s.pass) item.passed++;
  const key = answerKey(s.text);
  const seen = item.texts.get(key);
  if (seen) seen.count++;
  else if (item.texts.size < MAX_DISTINCT_TEXTS) item.texts.set(key, { count: 1, repeat: s.repeat, text: cutCopy(s.text, MAX_COMPARE_ANSWER_CHARS), chars: s.text.length });
  s.checks.forEach((check, index) => {
    // `pass: null` (a grader that could not judge) is neither a pass nor a failure.
    const state = (check.pass as boolean | null) ?? null;
    if (state === false) pushUnique(item.failedChecks, `${check.type}: ${check.detail}`.slice(0, MAX_DETAIL_CHARS));
    if (index < MAX_CHECKS_TALLIED) tally(item.checks, index, check.type, state, check.detail);
  });
  if (s.outcome !== 'ok') pushUnique(item.errors, s.error?.code ?? s.outcome);
  if (s.outcome === 'ok' && typeof s.latency_ms === 'number') item.latencies.push(s.latency_ms);
  if (s.outcome === 'ok' && typeof s.ttfc_ms === 'number') item.ttfcs.push(s.ttfc_ms);
  // Per-request credits as summary.json counts them: the answer's plus what its checks (judges) spent.
  if (s.credits_used !== null && s.outcome !== 'skipped') {
    item.creditUnits += sampleCreditUnits(s);
    item.creditsCount++;
  }
}

/**
 * The first `max` characters as a string of their own: V8 may keep a slice as a view on the whole
 * line's string, which would hold the 31 MB answer alive. A surrogate pair is never split.
 */
export function cutCopy(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return Buffer.from(text.slice(0, end), 'utf16le').toString('utf16le');
}

/**
 * Answers that differ only in whitespace are one answer (text-diff.ts's sameAnswer), whatever their
 * length: the digest of the text with runs of whitespace as one space, trimmed. Hashed piece by
 * piece, because one `replace` over a 31 MB answer took 560 MB.
 */
export function answerKey(text: string, pieceChars = 65_536): string {
  const hash = createHash('sha256');
  let started = false;
  let space = false;
  for (let i = 0; i < text.length; i += pieceChars) {
    let piece = text.slice(i, i + pieceChars).replace(/\s+/g, ' ');
    if (piece.startsWith(' ')) {
      space = true;
      piece = piece.slice(1);
    }
    const trailing = piece.endsWith(' ');
    if (trailing) piece = piece.slice(0, -1);
    if (piece !== '') {
      // UTF-16 code units: a surrogate pair cut between two pieces hashes as it would whole.
      if (space && started) hash.update(' ', 'utf16le');
      hash.update(piece, 'utf16le');
      started = true;
      space = false;
    }
    if (trailing) space = true;
  }
  return hash.digest('base64url');
}

function tally(checks: CheckTally[], index: number, type: string, state: boolean | null, detail: string): void {
  let t = checks[index];
  if (t === undefined || t.type !== type) {
    // A position whose type differs between repeats is not one check: the first type keeps it.
    if (t !== undefined) return;
    t = checks[index] = { type, passed: 0, failed: 0, notJudged: 0, detail: null };
  }
  if (state === null) t.notJudged++;
  else if (state) t.passed++;
  else {
    t.failed++;
    t.detail ??= detail.slice(0, MAX_DETAIL_CHARS);
  }
}

/** A check's verdict over its repeats: pass by strict majority of the judged ones; null when none was judged. */
export function checkVerdict(t: CheckTally): boolean | null {
  const judged = t.passed + t.failed;
  return judged === 0 ? null : t.passed * 2 > judged;
}

function pushUnique(list: string[], value: string): void {
  if (list.length < MAX_LISTED && !list.includes(value)) list.push(value);
}

function addToModel(models: Map<string, ModelTotals>, s: Sample): void {
  let totals = models.get(s.model);
  if (!totals) models.set(s.model, (totals = { requests: 0, passed: 0, creditUnits: 0, creditsKnown: 0 }));
  if (s.outcome === 'skipped') return;
  totals.requests++;
  if (s.pass) totals.passed++;
  else if (s.not_judged !== undefined) totals.notJudged = (totals.notJudged ?? 0) + 1;
  totals.creditUnits += sampleCreditUnits(s);
  if (s.credits_used !== null) totals.creditsKnown++;
}

/** The answer most repeats gave; on a tie, the earliest repeat's (deterministic for a report). Its key identifies it whole. */
export function representativeAnswer(item: ItemDigest): KeptAnswer & { key: string } {
  let best: (KeptAnswer & { key: string }) | null = null;
  for (const [key, kept] of item.texts) {
    if (!best || kept.count > best.count || (kept.count === best.count && kept.repeat < best.repeat)) best = { ...kept, key };
  }
  return best ?? { key: answerKey(''), count: 0, repeat: 0, text: '', chars: 0 };
}

/** The representative answer's text, cut to MAX_COMPARE_ANSWER_CHARS. */
export function representativeText(item: ItemDigest): string {
  return representativeAnswer(item).text;
}

/** Strictly more than half the repeats passed: 1 of 2 is not a pass (a coin flip should not hide a failure). */
export function majorityPass(item: Pick<ItemDigest, 'runs' | 'passed'>): boolean {
  return item.passed * 2 > item.runs;
}
