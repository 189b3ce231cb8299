// Streams one run's results.ndjson into what a comparison needs per item and model, never holding every answer.
import type { RunInfo } from '../domain/run.js';
import type { Sample } from '../domain/sample.js';
import { readResults } from '../store/results-reader.js';
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
  /** Repeats whose checks could not all be judged (and none failed): never a regression. */
  notJudged?: number;
  /** Distinct answers → how often and from which repeat first; capped (see MAX_DISTINCT_TEXTS). */
  texts: Map<string, { count: number; repeat: number }>;
  failedChecks: string[];
  errors: string[];
  /** Timings of the answers that arrived (outcome ok), as summary.json counts them. */
  latencies: number[];
  ttfcs: number[];
  /** Credits of the requests with known credits, in integer 1e-5 units (exact sums). */
  creditUnits: number;
  creditsCount: number;
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
const MAX_LISTED = 5;

/**
 * `case:x|model:m|r2` → `case:x|model:m`: repeats (and an open loop's passes) of one question on one
 * model are one item. A failed conversation's line pools its repeats the same way.
 */
export const itemKeyOf = poolKeyOf;

export async function digestRun(dir: string, run: RunInfo): Promise<RunDigest> {
  const digest: RunDigest = { dir, run, samples: 0, items: new Map(), models: new Map() };
  for await (const sample of readResults(dir)) {
    digest.samples++;
    addToItem(itemOf(digest.items, sample), sample);
    addToModel(digest.models, sample);
  }
  return digest;
}

function itemOf(items: Map<string, ItemDigest>, s: Sample): ItemDigest {
  const key = itemKeyOf(s.item_id);
  let item = items.get(key);
  if (!item) {
    item = {
      key, ids: new Set(), case_id: s.case_id, thread_id: s.thread_id, turn: s.turn, model: s.model, prompt: s.prompt ?? null,
      runs: 0, passed: 0, texts: new Map(), failedChecks: [], errors: [], latencies: [], ttfcs: [], creditUnits: 0, creditsCount: 0,
    };
    items.set(key, item);
  }
  return item;
}


function addToItem(item: ItemDigest, s: Sample): void {
  item.ids.add(s.item_id);
  item.runs++;
  if (s.pass) item.passed++;
  else if (s.not_judged !== undefined) item.notJudged = (item.notJudged ?? 0) + 1;
  const seen = item.texts.get(s.text);
  if (seen) seen.count++;
  else if (item.texts.size < MAX_DISTINCT_TEXTS) item.texts.set(s.text, { count: 1, repeat: s.repeat });
  for (const check of s.checks) if (check.pass === false) pushUnique(item.failedChecks, `${check.type}: ${check.detail}`);
  if (s.outcome !== 'ok') pushUnique(item.errors, s.error?.code ?? s.outcome);
  if (s.outcome === 'ok' && typeof s.latency_ms === 'number') item.latencies.push(s.latency_ms);
  if (s.outcome === 'ok' && typeof s.ttfc_ms === 'number') item.ttfcs.push(s.ttfc_ms);
  // Per-request credits as summary.json counts them: the answer's plus what its checks (judges) spent.
  if (s.credits_used !== null && s.outcome !== 'skipped') {
    item.creditUnits += sampleCreditUnits(s);
    item.creditsCount++;
  }
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

/** The answer most repeats gave; on a tie, the earliest repeat's (deterministic for a report). */
export function representativeText(item: ItemDigest): string {
  let best: { text: string; count: number; repeat: number } | null = null;
  for (const [text, { count, repeat }] of item.texts) {
    if (!best || count > best.count || (count === best.count && repeat < best.repeat)) best = { text, count, repeat };
  }
  return best?.text ?? '';
}

/** Strictly more than half the repeats passed: 1 of 2 is not a pass (a coin flip should not hide a failure). */
export function majorityPass(item: Pick<ItemDigest, 'runs' | 'passed'>): boolean {
  return item.passed * 2 > item.runs;
}
