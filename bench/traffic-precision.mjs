// Bench: the replay-precision claims of issue 36 (`run --traffic`), on the wall clock. A peer process
// on 127.0.0.1 (bench/servers/kb-server.mjs stamped) stamps each answer request's arrival on
// CLOCK_MONOTONIC; kbbench runs as its own process. A 10-second log of 150 records (one-time
// questions, three bursts, three conversations) is replayed at --time-scale 1 and 2.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile, printMethod, printTable, round } from './lib/stats.mjs';
import { getJson, runKbbench, startKbServer } from './lib/whole.mjs';

/** The claims' bounds: p95 |arrival error|, a burst's spread, the span ratio's tolerance at --time-scale 2. */
const BOUNDS = { p95ErrorMs: 15, burstSpreadMs: 15, ratioTolerance: 0.01 };
const BURSTS = [2, 5, 8];
const BURST_SIZE = 15;

/** 150 records over 10 s: 90 one-time questions 1/9 s apart, 3 bursts of 15 at one instant, 3 conversations of 5 turns. */
export function precisionLog() {
  const records = [];
  for (let i = 0; i < 90; i += 1) records.push({ at: 0.05 + i / 9, prompt: 'How long is the free trial?' });
  for (const at of BURSTS) for (let i = 0; i < BURST_SIZE; i += 1) records.push({ at, prompt: 'Which plans do you offer?', burst: at });
  for (let c = 1; c <= 3; c += 1) {
    for (let turn = 0; turn < 5; turn += 1) records.push({ at: 0.3 * c + turn * 1.9, prompt: `Tell me more about plan ${turn + 1}.`, conversation: `c${c}` });
  }
  // In file order, each prompt numbered (q<N>) so that an arrival names its record.
  return records.sort((a, b) => a.at - b.at).map((r, i) => ({ ...r, prompt: `q${i} ${r.prompt}` }));
}

/** bench/servers/kb-server.mjs stamped, in its own process: each answer request's CLOCK_MONOTONIC arrival, answers in ~25 ms. */
async function startStampingPeer() {
  const saved = { first: process.env.KB_SERVER_FIRST_MS, gap: process.env.KB_SERVER_GAP_MS };
  Object.assign(process.env, { KB_SERVER_FIRST_MS: '5', KB_SERVER_GAP_MS: '1' });
  try {
    return await startKbServer('stamped');
  } finally {
    for (const [name, value] of [['KB_SERVER_FIRST_MS', saved.first], ['KB_SERVER_GAP_MS', saved.gap]]) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** One replay at `timeScale`: the peer's stamps matched to their records (by the prompt's q-number), in ms. */
async function replay(dir, log, peer, timeScale) {
  await getJson(`${peer.origin}/log`);
  await runKbbench({
    origin: peer.origin, outDir: join(dir, `run-x${timeScale}`),
    flags: ['--traffic', log, '--time-scale', String(timeScale), '--fail-on', 'none'],
  });
  const stamps = await getJson(`${peer.origin}/log`);
  return stamps.map((r) => ({ index: Number(/^q(\d+)/.exec(r.prompt)?.[1]), atMs: Number(r.recv_ns) / 1e6, answeredAtMs: Number(r.end_ns) / 1e6 }));
}

/** The figures of one replay: arrival errors (aligned on their median: kbbench's t0 is its own), bursts, turns. */
function figures(records, arrivals, timeScale) {
  const byIndex = new Map(arrivals.map((a) => [a.index, a]));
  const lagsMs = arrivals.map((a) => a.atMs - (records[a.index].at * 1000) / timeScale).sort((x, y) => x - y);
  const offsetMs = percentile(lagsMs, 50);
  // A turn held behind a slow answer is late by design: left out of the error, counted in `held`.
  let held = 0;
  let outOfOrder = 0;
  const errorsMs = [];
  const previous = new Map();
  for (const [index, record] of records.entries()) {
    const a = byIndex.get(index);
    if (!a) continue;
    const dueMs = offsetMs + (record.at * 1000) / timeScale;
    const before = record.conversation ? previous.get(record.conversation) : undefined;
    if (before !== undefined) {
      if (a.atMs < before.answeredAtMs || a.atMs < before.atMs) outOfOrder += 1;
      if (before.answeredAtMs > dueMs) held += 1;
      else errorsMs.push(Math.abs(a.atMs - dueMs));
    } else errorsMs.push(Math.abs(a.atMs - dueMs));
    if (record.conversation) previous.set(record.conversation, a);
  }
  const spreadsMs = BURSTS.map((at) => {
    const times = records.flatMap((r, i) => (r.burst === at && byIndex.has(i) ? [byIndex.get(i).atMs] : []));
    return Math.max(...times) - Math.min(...times);
  });
  const times = arrivals.map((a) => a.atMs);
  errorsMs.sort((x, y) => x - y);
  return {
    arrived: arrivals.length, p95ErrorMs: percentile(errorsMs, 95), maxErrorMs: errorsMs.at(-1), worstBurstSpreadMs: Math.max(...spreadsMs),
    outOfOrder, held, spanMs: Math.max(...times) - Math.min(...times),
  };
}

/** The rows of the claim, in timing-claims' shape ({ claim, bound_ms, measured_ms, within }), and the figures. */
export async function trafficPrecisionRows() {
  const dir = mkdtempSync(join(tmpdir(), 'kbbench-bench-precision-'));
  const records = precisionLog();
  const log = join(dir, 'traffic.jsonl');
  writeFileSync(log, records.map(({ burst: _burst, ...r }) => JSON.stringify(r)).join('\n') + '\n');
  const peer = await startStampingPeer();
  try {
    const x1 = figures(records, await replay(dir, log, peer, 1), 1);
    const x2 = figures(records, await replay(dir, log, peer, 2), 2);
    const ratio = x2.spanMs / x1.spanMs;
    const all = records.length;
    const rows = [
      { claim: 'traffic x1: p95 |arrival error|, 150 records', bound_ms: BOUNDS.p95ErrorMs, measured_ms: round(x1.p95ErrorMs, 1), within: x1.p95ErrorMs <= BOUNDS.p95ErrorMs && x1.arrived === all },
      { claim: 'traffic x1: widest burst (15 at one instant)', bound_ms: BOUNDS.burstSpreadMs, measured_ms: round(x1.worstBurstSpreadMs, 1), within: x1.worstBurstSpreadMs <= BOUNDS.burstSpreadMs },
      { claim: 'traffic x2: p95 |arrival error|', bound_ms: BOUNDS.p95ErrorMs, measured_ms: round(x2.p95ErrorMs, 1), within: x2.p95ErrorMs <= BOUNDS.p95ErrorMs && x2.arrived === all },
      { claim: 'traffic x2: widest burst', bound_ms: BOUNDS.burstSpreadMs, measured_ms: round(x2.worstBurstSpreadMs, 1), within: x2.worstBurstSpreadMs <= BOUNDS.burstSpreadMs },
      { claim: 'traffic: turns out of order or before the previous answer (x1 + x2)', bound_ms: 0, measured_ms: x1.outOfOrder + x2.outOfOrder, within: x1.outOfOrder + x2.outOfOrder === 0 },
      { claim: `traffic: span at x2 / span at x1 (0.5 ± ${BOUNDS.ratioTolerance})`, bound_ms: 0.5, measured_ms: round(ratio, 4), within: Math.abs(ratio - 0.5) <= BOUNDS.ratioTolerance },
    ];
    return { rows, figures: { x1, x2, ratio } };
  } finally {
    await peer.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchTrafficPrecision() {
  printMethod(
    'a 10 s JSONL log of 150 records (90 one-time questions 1/9 s apart, bursts of 15 at 2, 5 and 8 s, three conversations of 5 turns 1.9 s apart) ' +
      'replayed by `kbbench run --traffic LOG --time-scale 1`, then 2, as a child process against a stamping proxy (this process, 127.0.0.1, performance.now() ' +
      'at each answer request\'s arrival) in front of the reference service (latency scale 0). Errors: |arrival − recorded offset / scale|, aligned on ' +
      'their median (kbbench\'s t0 is not visible to the peer); a turn whose previous answer came after its instant is left out of the error (it is held ' +
      'by design) and counted as held. Burst: last − first arrival of its 15 records. Span: last − first arrival.',
  );
  const { rows, figures: f } = await trafficPrecisionRows();
  printTable('traffic replay precision (issue 36)', ['claim', 'bound_ms', 'measured_ms', 'within'], rows);
  const detail = (x, scale) => ({ scale, arrived: x.arrived, p95_error_ms: round(x.p95ErrorMs, 1), max_error_ms: round(x.maxErrorMs, 1), worst_burst_ms: round(x.worstBurstSpreadMs, 1), held: x.held, out_of_order: x.outOfOrder, span_ms: round(x.spanMs, 0) });
  printTable('traffic replay precision: per time scale', ['scale', 'arrived', 'p95_error_ms', 'max_error_ms', 'worst_burst_ms', 'held', 'out_of_order', 'span_ms'], [detail(f.x1, 1), detail(f.x2, 2)]);
  return { rows, span_ratio: round(f.ratio, 4) };
}
