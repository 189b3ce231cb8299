// Test support shared by every folder's tests: Samples (one builder of the whole shape, so a new
// field changes one place), run directories, and seeded log-normal draws for the statistics tests.
import { RecordedRunConfigSchema } from '../domain/run-config.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunInfo } from '../domain/run.js';
import type { Sample } from '../domain/sample.js';
import { mulberry32 } from '../compare/bootstrap.js';

export interface SampleSpec {
  caseId?: string;
  threadId?: string;
  turn?: number;
  model?: string;
  repeat?: number;
  pass?: boolean;
  text?: string;
  latencyMs?: number;
  ttfcMs?: number;
  credits?: number | null;
  outcome?: Sample['outcome'];
}

export function sample(spec: SampleSpec = {}): Sample {
  const model = spec.model ?? 'gpt-4o';
  const repeat = spec.repeat ?? 1;
  const itemId = spec.threadId
    ? `thread:${spec.threadId}|turn:${spec.turn ?? 1}|model:${model}|r${repeat}`
    : `case:${spec.caseId ?? 'refund-window'}|model:${model}|r${repeat}`;
  const pass = spec.pass ?? true;
  const outcome = spec.outcome ?? 'ok';
  return {
    item_id: itemId, case_id: spec.threadId ? null : (spec.caseId ?? 'refund-window'), thread_id: spec.threadId ?? null,
    turn: spec.threadId ? (spec.turn ?? 1) : null, model, repeat, endpoint: 'ask', method: 'post', streaming: true,
    conversation_id: null, started_at: '2026-01-01T00:00:00.000Z', offset_ms: 0, status: outcome === 'ok' ? 200 : 500, outcome,
    error: outcome === 'ok' ? null : { code: 'E_SERVER', message: 'boom' }, attempts: 1, ttfb_ms: 10, ttfc_ms: spec.ttfcMs ?? 100,
    last_chunk_ms: null, finish_ms: null, usage_ms: null, latency_ms: spec.latencyMs ?? 200, chunks: 3, chars: (spec.text ?? 'ok').length,
    gap_mean_ms: null, gap_max_ms: null, text: spec.text ?? 'We give a full refund within 30 days.',
    credits_used: spec.credits === undefined ? 0.01 : spec.credits, credits_remaining: null, credits_unknown: false,
    checks: [{ type: 'contains', pass, detail: pass ? 'contains "30 days"' : 'expected to contain "30 days"' }], pass,
    prompt: 'How long do customers have to ask for a refund?',
  };
}

/**
 * A complete Sample (an answered `ask` of case refund-window, with one passing check) with `over`
 * on top: a test names only the fields it is about.
 */
export function sampleWith(over: Partial<Sample> = {}): Sample {
  return { ...sample(), ...over };
}

export function runInfo(overrides: Partial<RunInfo> = {}): RunInfo {
  return {
    schema_version: 4, load: { spec: { kind: 'closed', concurrency: 4 } },
    run_id: 'run-0000-aaaa', tool: { name: 'kbbench', version: '0.0.0' }, suite: { name: 'unit', path: 'unit.yaml', sha256: 'abc' },
    plan: { items: 1, requests: 1, threads: 0, models: ['gpt-4o'] }, config: RecordedRunConfigSchema.parse({}),
    target: { base_url: 'embedded', embedded: true, board_id: 'b', chat_id: 'c' }, thresholds: {},
    started_at: '2026-01-01T00:00:00.000Z', finished_at: '2026-01-01T00:01:00.000Z', duration_ms: 60_000, status: 'completed',
    ...overrides,
  };
}

/** A run directory as kbbench writes it (run.json and results.ndjson only: all compare reads). */
export function writeRun(dir: string, samples: readonly Sample[], info: Partial<RunInfo> = {}): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'run.json'), JSON.stringify(runInfo(info)));
  writeFileSync(join(dir, 'results.ndjson'), samples.map((s) => `${JSON.stringify(s)}\n`).join(''));
  return dir;
}

/** n log-normal draws around `median` (sigma on the log scale), from a seeded generator (Box-Muller). */
export function logNormalSample(seed: number, n: number, median: number, sigma: number): number[] {
  const random = mulberry32(seed);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const u = 1 - random();
    const v = random();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    out.push(median * Math.exp(sigma * z));
  }
  return out;
}

/** An answer that would break HTML, markdown and a table if anything forgot to escape it. */
export const NASTY_TEXT = 'Refunds <script>alert("x")</script> | *within* [30](http://evil) days & `more`';
