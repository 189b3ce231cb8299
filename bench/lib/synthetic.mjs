// Synthetic, reproducible run data for the memory bench: Samples shaped like a real run's, and its run.json.
const MODELS = ['claude-sonnet-4-6', 'gpt-4o', 'gpt-4o-mini'];
const ANSWERS = [
  'Based on the connected documents:\n\n- **Starter** — the free plan for up to 3 agents, with one shared inbox and email support.\n- **Team** — the plan for growing groups of up to 50 agents, with automations and saved replies.\n- **Team**: €29 per agent per month billed annually, or €35 per agent billed monthly.\n\nSources: Plans and pricing (plans-and-pricing.md)',
  'Here is what the connected documents say:\n\n- Go to Settings → People → Invite agents and enter their email addresses. Invitations expire after 7 days.\n- **Owner** — manages billing, security settings and can delete the workspace.\n\nSources: Getting started with Cobalt Desk 🚀 (getting-started.md)',
  'Customers can ask for a full refund within 30 days of their first payment. After 30 days, refunds are given pro rata for annual plans only.\n\nSources: Refunds and cancellations (refunds.md)',
];

/** A small seeded PRNG (mulberry32): the same file every run. */
export function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const logNormal = (random, median, sigma) => median * Math.exp(sigma * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random()));

/** The i-th Sample of a synthetic run: 200 cases × 3 models, repeated; ~2% errors of every kind. */
export function syntheticSample(i, random) {
  const model = MODELS[i % MODELS.length];
  const caseNo = Math.floor(i / MODELS.length) % 200;
  const roll = random();
  const outcome = roll < 0.005 ? 'timeout' : roll < 0.015 ? 'http_error' : roll < 0.02 ? 'stream_error' : 'ok';
  const ok = outcome === 'ok';
  const ttfb = logNormal(random, 120, 0.3);
  const ttfc = ttfb + logNormal(random, 600, 0.4);
  const latency = ttfc + logNormal(random, 1500, 0.3);
  const text = ok ? ANSWERS[i % ANSWERS.length] : '';
  const used = ok ? Number((0.01 + random() * 0.04).toFixed(5)) : null;
  return {
    item_id: `case-${caseNo}#${model}#${Math.floor(i / 600)}`, case_id: `case-${caseNo}`, thread_id: null, turn: null, model,
    repeat: Math.floor(i / 600) + 1, endpoint: 'ask', method: 'post', streaming: true, conversation_id: null,
    started_at: new Date(1_767_000_000_000 + i * 50).toISOString(), offset_ms: i * 50,
    status: outcome === 'http_error' ? 429 : 200, outcome,
    error: ok ? null : { code: outcome === 'timeout' ? 'E_TIMEOUT' : outcome === 'http_error' ? 'E_RATE_LIMITED' : 'E_STREAM', message: `synthetic ${outcome}` },
    attempts: 1, ttfb_ms: round3(ttfb), ttfc_ms: ok ? round3(ttfc) : null, last_chunk_ms: ok ? round3(latency - 5) : null,
    finish_ms: ok ? round3(latency) : null, usage_ms: ok ? round3(latency + 1) : null, latency_ms: ok ? round3(latency) : null,
    chunks: ok ? 40 : 0, chars: text.length, gap_mean_ms: ok ? 25 : null, gap_max_ms: ok ? 80 : null, text,
    credits_used: used, credits_remaining: used === null ? null : Number((10_000 - i * 0.03).toFixed(5)), credits_unknown: !ok,
    checks: ok ? [{ type: 'contains', pass: random() > 0.05, detail: 'contains "plan"' }] : [], pass: ok && random() > 0.05,
    stream_dialect: 'ui-sse', prompt: `Synthetic question number ${caseNo}?`,
  };
}

const round3 = (ms) => Math.round(ms * 1000) / 1000;

export function syntheticRunInfo(samples) {
  return {
    run_id: 'bench-synthetic', tool: { name: 'kbbench', version: 'bench' },
    suite: { name: 'synthetic', path: 'bench/synthetic.yaml', sha256: '0'.repeat(64) },
    plan: { items: samples, requests: samples, threads: 0, models: MODELS }, options: {},
    target: { base_url: 'http://127.0.0.1:0', embedded: true, board_id: 'bench-board', chat_id: 'bench-chat' },
    thresholds: {}, started_at: '2026-01-01T00:00:00.000Z', finished_at: '2026-01-01T01:23:20.000Z',
    duration_ms: samples * 50, status: 'completed',
  };
}
