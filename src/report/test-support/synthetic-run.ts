// Test support: a seeded synthetic run (3 models, cases, a thread, a failing check, an error) written as a run dir.
import { RecordedRunConfigSchema } from '../../domain/run-config.js';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunInfo } from '../../domain/run.js';
import type { CheckResult, Sample } from '../../domain/sample.js';

export const SYNTHETIC_MODELS = ['claude-sonnet-4-6', 'gpt-4o-mini', 'mistral-large'] as const;

/** A small deterministic PRNG (mulberry32): the same seed gives the same run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Item {
  case_id: string | null;
  thread_id: string | null;
  turn: number | null;
  prompt: string;
  answer: string;
}

export const NASTY_ANSWER = 'Use <script>alert("x")</script> & "quotes", commas, and\na second line — plus ünïcödé.';

const ITEMS: Item[] = [
  { case_id: 'refund-window', thread_id: null, turn: null, prompt: 'How long do customers have to ask for a refund?', answer: 'Customers can ask for a refund within 30 days of purchase.' },
  { case_id: 'shipping-times', thread_id: null, turn: null, prompt: 'How long does shipping take to Europe?', answer: 'Shipping to Europe takes 5 to 7 business days.' },
  { case_id: 'escaping', thread_id: null, turn: null, prompt: 'Say something with <b>markup</b> & "quotes", please', answer: NASTY_ANSWER },
  { case_id: null, thread_id: 'onboarding', turn: 1, prompt: 'Which plans do you offer?', answer: 'We offer Free, Pro and Enterprise plans.' },
  { case_id: null, thread_id: 'onboarding', turn: 2, prompt: 'How much is the second one?', answer: 'The Pro plan costs $29 per month.' },
  { case_id: null, thread_id: 'onboarding', turn: 3, prompt: 'Can I pay yearly?', answer: 'Yes, yearly billing saves two months.' },
];

const BASE_TTFC_MS: Record<string, number> = { 'claude-sonnet-4-6': 420, 'gpt-4o-mini': 260, 'mistral-large': 610 };

function checksFor(item: Item, model: string): CheckResult[] {
  if (item.case_id === 'refund-window') {
    const failing = model === 'gpt-4o-mini';
    return [
      { type: 'contains', pass: true, detail: 'found "30 days"' },
      { type: 'not-contains', pass: !failing, detail: failing ? 'found "I don\'t know" <at> 12' : 'absent: "I don\'t know"' },
    ];
  }
  return [{ type: 'icontains', pass: true, detail: 'found' }];
}

export interface SyntheticOptions {
  seed?: number;
  repeats?: number;
}

export function syntheticSamples(options: SyntheticOptions = {}): Sample[] {
  const random = seededRandom(options.seed ?? 42);
  const repeats = options.repeats ?? 3;
  const samples: Sample[] = [];
  let offsetMs = 0;
  let remaining = 1000;
  for (let repeat = 1; repeat <= repeats; repeat++) {
    for (const item of ITEMS) {
      for (const model of SYNTHETIC_MODELS) {
        offsetMs += 40 + random() * 120;
        const sample = makeSample(item, model, repeat, offsetMs, random);
        if (sample.credits_used !== null) remaining -= sample.credits_used;
        sample.credits_remaining = Math.round(remaining * 1e6) / 1e6;
        samples.push(sample);
      }
    }
  }
  return samples;
}

function makeSample(item: Item, model: string, repeat: number, offsetMs: number, random: () => number): Sample {
  const key = item.case_id ?? `${item.thread_id}-${item.turn}`;
  const ttfbMs = 80 + random() * 60;
  const ttfcMs = BASE_TTFC_MS[model]! * (0.8 + random() * 0.6);
  const answer = item.case_id === 'refund-window' && model === 'gpt-4o-mini' ? `${item.answer} I don't know the exact terms.` : item.answer;
  const streamMs = answer.length * (8 + random() * 6);
  const latencyMs = ttfcMs + streamMs + 5;
  const checks = checksFor(item, model);
  const base: Sample = {
    item_id: `${key}:${model}:r${repeat}`, case_id: item.case_id, thread_id: item.thread_id, turn: item.turn, model, repeat,
    endpoint: item.thread_id === null ? 'ask' : item.turn === 1 ? 'create' : 'continue', method: 'post', streaming: true,
    conversation_id: item.thread_id ? `conv-${model}-${repeat}` : null, started_at: new Date(Date.UTC(2025, 10, 22, 1, 43, 0) + offsetMs).toISOString(),
    offset_ms: offsetMs, status: 200, outcome: 'ok', error: null, attempts: 1, ttfb_ms: ttfbMs, ttfc_ms: ttfcMs,
    last_chunk_ms: ttfcMs + streamMs, finish_ms: latencyMs - 2, usage_ms: latencyMs - 1, latency_ms: latencyMs,
    chunks: Math.ceil(answer.length / 12), chars: answer.length, gap_mean_ms: 30 + random() * 10, gap_max_ms: 60 + random() * 90,
    text: answer, credits_used: Math.round((0.002 + answer.length * 0.0001 * (model === 'claude-sonnet-4-6' ? 2 : 1)) * 1e6) / 1e6,
    credits_remaining: null, credits_unknown: false, checks, pass: checks.every((c) => c.pass), prompt: item.prompt,
  };
  return applyFaults(base, item, model, repeat);
}

/** mistral-large times out on onboarding turn 2 in repeat 1, so its turn 3 there is skipped. */
function applyFaults(sample: Sample, item: Item, model: string, repeat: number): Sample {
  if (model !== 'mistral-large' || repeat !== 1 || item.thread_id === null) return sample;
  if (item.turn === 2) {
    return {
      ...sample, status: null, outcome: 'timeout', error: { code: 'E_TIMEOUT', message: 'no first chunk within 30000 ms <timeout>' },
      attempts: 2, ttfc_ms: null, last_chunk_ms: null, finish_ms: null, usage_ms: null, latency_ms: 30000, chunks: 0, chars: 0,
      text: '', credits_used: null, credits_unknown: false, checks: [], pass: false,
    };
  }
  if (item.turn === 3) {
    return {
      ...sample, status: null, outcome: 'skipped', error: { code: 'E_SKIPPED', message: 'turn 2 failed' }, ttfb_ms: null,
      ttfc_ms: null, last_chunk_ms: null, finish_ms: null, usage_ms: null, latency_ms: null, chunks: 0, chars: 0, text: '',
      credits_used: null, checks: [], pass: false,
    };
  }
  return sample;
}

export function syntheticRunInfo(runDir: string): RunInfo {
  return {
    schema_version: 4,
    run_id: 'support-faq-20251122T014300Z',
    tool: { name: 'kbbench', version: '0.1.0' },
    suite: { name: 'support-faq', path: join(runDir, 'suite.yaml'), sha256: 'abc123' },
    plan: { items: ITEMS.length, requests: ITEMS.length * SYNTHETIC_MODELS.length * 3, threads: 1, models: [...SYNTHETIC_MODELS] },
    config: RecordedRunConfigSchema.parse({ placement: { workers: 1 } }),
    target: { base_url: 'http://127.0.0.1:8787', embedded: true, board_id: 'winter-frost-CJk4G', chat_id: 'chatNode-patient-star-4uIJt' },
    thresholds: { ttfc_ms: ['p(95)<2000'] },
    started_at: '2025-11-22T01:43:00.000Z',
    finished_at: '2025-11-22T01:43:12.400Z',
    duration_ms: 12400,
    status: 'completed',
    load: { spec: { kind: 'closed', concurrency: 4 } },
  };
}

/** Writes run.json and results.ndjson; `tornTail` appends half a line, as an interrupted run leaves it. */
export async function writeSyntheticRun(runDir: string, options: SyntheticOptions & { tornTail?: boolean } = {}): Promise<{ run: RunInfo; samples: Sample[] }> {
  await mkdir(runDir, { recursive: true });
  const run = syntheticRunInfo(runDir);
  const samples = syntheticSamples(options);
  const lines = samples.map((s) => JSON.stringify(s)).join('\n') + '\n';
  const torn = options.tornTail ? JSON.stringify(samples[0]).slice(0, 57) : '';
  await writeFile(join(runDir, 'run.json'), JSON.stringify(run, null, 2));
  await writeFile(join(runDir, 'results.ndjson'), lines + torn);
  return { run, samples };
}
