// Streams bench: many slow streams, the whole `kbbench run` process beside a bare undici loop in a
// process of its own, against bench/servers/kb-server.mjs stamped (child process, 127.0.0.1): every
// answer's first text chunk 500 ms after the request arrived, then 19 more 50 ms apart (20 in all). The
// server stamps the first chunk with CLOCK_MONOTONIC, which every process of the machine shares.
//   a. 2,000 in flight, 4,000 streams: every answer complete? CPU time (user+sys) of each process.
//   b. 500 in flight, 1,000 streams on warm connections: TTFC error, p50 and p99, median of rounds.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printMethod, printTable, round, summarise } from './lib/stats.mjs';
import { getJson, load1, median, rotated, runBare, runKbbench, startKbServer, writeSuite } from './lib/whole.mjs';

const STAMP = /t=(\d+) r=(\d+) /;

function readNdjson(path) {
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
}

/** The server's records since the last call, by sequence number. */
async function serverLog(origin) {
  const records = await getJson(`${origin}/log`);
  return new Map(records.map((r) => [r.seq, { ...r, recv_ns: BigInt(r.recv_ns), first_ns: r.first_ns === null ? null : BigInt(r.first_ns), end_ns: r.end_ns === null ? null : BigInt(r.end_ns) }]));
}

const ms = (ns) => Number(ns) / 1e6;

/** kbbench's results.ndjson lines as { prompt, offset_ms, ttfc_ms, stamp_ns, seq, complete }. */
function kbbenchRecords(dir) {
  return readNdjson(join(dir, 'results.ndjson')).map((s) => {
    const stamp = STAMP.exec(s.text ?? '');
    return {
      prompt: s.prompt, offset_ms: s.offset_ms, ttfc_ms: s.ttfc_ms, stamp_ns: stamp ? stamp[1] : null, seq: stamp ? Number(stamp[2]) : null,
      complete: s.outcome === 'ok' && s.chunks === 20 && typeof s.text === 'string' && s.text.endsWith('word19 '),
    };
  });
}

/**
 * Pairs a client's records with the server's. For each request:
 *  paired error = the client's TTFC - the server's (first-chunk write - request arrival);
 *  one-way, anchored = the client's first-chunk time on CLOCK_MONOTONIC - the server's stamp, where the
 *    client's time is anchor + offset_ms + ttfc_ms and anchor = min over requests of (arrival - offset_ms),
 *    the latest start that no request contradicts (too late by the fastest request's transit);
 *  one-way, direct (bare loop only) = hrtime when the first delta was read - the stamp.
 */
function pair(records, log, prefix) {
  const joined = [];
  for (const r of records) {
    if (!r.prompt?.startsWith(prefix) || r.seq === null) continue;
    const s = log.get(r.seq);
    if (!s || s.first_ns === null || s.prompt !== r.prompt) continue;
    if (r.stamp_ns !== String(s.first_ns)) throw new Error(`stamp mismatch for ${r.prompt}`);
    joined.push({ r, s });
  }
  const warm = joined.filter((j) => j.s.reused);
  const anchor = Math.min(...joined.map((j) => ms(j.s.recv_ns) - j.r.offset_ms));
  const stats = (list) => ({
    paired: summarise(list.map((j) => j.r.ttfc_ms - ms(j.s.first_ns - j.s.recv_ns))),
    request_leg: summarise(list.map((j) => ms(j.s.recv_ns) - (anchor + j.r.offset_ms))),
    anchored: summarise(list.map((j) => anchor + j.r.offset_ms + j.r.ttfc_ms - ms(j.s.first_ns))),
    direct: summarise(list.filter((j) => j.r.arrival_ns).map((j) => ms(BigInt(j.r.arrival_ns) - j.s.first_ns))),
    server_ttfc: summarise(list.map((j) => ms(j.s.first_ns - j.s.recv_ns))),
    client_ttfc: summarise(list.map((j) => j.r.ttfc_ms)),
  });
  return { matched: joined.length, warm: warm.length, complete: joined.filter((j) => j.r.complete).length, all: stats(joined), onWarm: stats(warm) };
}

async function partA(ctx, rounds) {
  const COUNT = 4000;
  const CONC = 2000;
  const suite = writeSuite(ctx.dir, 'streams-a', Array.from({ length: 100 }, (_, i) => ({ id: `a${i}`, prompt: `a-${i}` })));
  const one = writeSuite(ctx.dir, 'streams-one', [{ id: 'a0', prompt: 'a-0' }]);
  const kbFlags = (conc, repeat) => ['--concurrency', String(conc), '--repeat', String(repeat), '--retries', '0', '--timeout', '60s'];
  const tools = {
    kbbench: async (r) => {
      const out = join(ctx.dir, `a-kb-${r}`);
      const { proc, summary } = await runKbbench({ suite, origin: ctx.origin, outDir: out, flags: kbFlags(CONC, COUNT / 100) });
      const records = kbbenchRecords(out);
      return { proc, requests: summary.totals.requests, ok: summary.totals.ok, complete: records.filter((x) => x.complete).length, phase_ms: summary.totals.duration_ms };
    },
    'bare undici': async (r) => {
      const file = join(ctx.dir, `a-bare-${r}.ndjson`);
      const { proc, result } = await runBare({ origin: ctx.origin, concurrency: CONC, streaming: true, prompt: 'a', count: COUNT, warm: 0, records: file });
      return { proc, requests: result.requests, ok: readNdjson(file).filter((x) => !x.error).length, complete: result.complete, phase_ms: result.elapsed_ms };
    },
  };
  // Start-up and exit alone: one request, one in flight (what a whole process costs before any load).
  await getJson(`${ctx.origin}/log`);
  const base = {
    kbbench: (await runKbbench({ suite: one, origin: ctx.origin, outDir: join(ctx.dir, 'a-kb-one'), flags: kbFlags(1, 1) })).proc,
    'bare undici': (await runBare({ origin: ctx.origin, concurrency: 1, streaming: true, prompt: 'a', count: 1, warm: 0 })).proc,
  };
  await getJson(`${ctx.origin}/log`);
  const raw = [];
  for (let r = 0; r < rounds; r++) {
    for (const tool of rotated(['kbbench', 'bare undici'], r)) {
      const l = load1();
      const run = await tools[tool](r);
      const log = await serverLog(ctx.origin);
      const ended = [...log.values()].filter((s) => s.end_ns !== null);
      const served = ended.length;
      // The server's own schedule: how long its streams really took (1,450 ms when on time).
      const serverStream = summarise(ended.map((s) => ms(s.end_ns - s.recv_ns)));
      raw.push({
        tool, round: r + 1, load1: l, requests: run.requests, ok: run.ok, complete: run.complete, server_finished: served,
        server_stream_p50_ms: serverStream.p50, server_stream_p99_ms: serverStream.p99,
        phase_s: run.phase_ms / 1000, wall_s: run.proc.wall_ms / 1000, cpu_s: run.proc.cpu_s, user_s: run.proc.user_s, sys_s: run.proc.sys_s, peak_rss_mb: run.proc.peak_rss_mb,
      });
    }
  }
  const med = (tool, key) => median(raw.filter((x) => x.tool === tool).map((x) => x[key]));
  const rows = Object.keys(tools).map((tool) => {
    const marginal = ((med(tool, 'cpu_s') - base[tool].cpu_s) * 1e6) / COUNT;
    return {
      tool, rounds, requests: COUNT, complete_min: Math.min(...raw.filter((x) => x.tool === tool).map((x) => x.complete)),
      server_finished_min: Math.min(...raw.filter((x) => x.tool === tool).map((x) => x.server_finished)),
      server_stream_p50_ms: round(med(tool, 'server_stream_p50_ms'), 0), server_stream_p99_ms: round(med(tool, 'server_stream_p99_ms'), 0),
      phase_s: round(med(tool, 'phase_s'), 2), wall_s: round(med(tool, 'wall_s'), 2), cpu_s: round(med(tool, 'cpu_s'), 2), user_s: round(med(tool, 'user_s'), 2), sys_s: round(med(tool, 'sys_s'), 2),
      startup_cpu_s: round(base[tool].cpu_s, 2), cpu_us_per_stream: round((med(tool, 'cpu_s') * 1e6) / COUNT, 0), marginal_cpu_us_per_stream: round(marginal, 0),
      peak_rss_mb: round(med(tool, 'peak_rss_mb'), 1), load1: round(med(tool, 'load1'), 2),
    };
  });
  const [kb, bare] = rows;
  const ratios = { cpu: round(kb.cpu_s / bare.cpu_s, 2), marginal_cpu: round(kb.marginal_cpu_us_per_stream / bare.marginal_cpu_us_per_stream, 2), peak_rss: round(kb.peak_rss_mb / bare.peak_rss_mb, 2) };
  return { count: COUNT, concurrency: CONC, rows, ratios, raw };
}

async function partB(ctx, rounds) {
  const COUNT = 1000;
  const CONC = 500;
  const cases = [
    ...Array.from({ length: CONC }, (_, i) => ({ id: `w${i}`, prompt: `warm-${i}` })),
    ...Array.from({ length: COUNT }, (_, i) => ({ id: `m${i}`, prompt: `m-${i}` })),
  ];
  const suite = writeSuite(ctx.dir, 'streams-b', cases);
  const tools = {
    kbbench: async (r) => {
      const out = join(ctx.dir, `b-kb-${r}`);
      await runKbbench({ suite, origin: ctx.origin, outDir: out, flags: ['--concurrency', String(CONC), '--retries', '0', '--timeout', '60s'] });
      return kbbenchRecords(out);
    },
    'bare undici': async (r) => {
      const file = join(ctx.dir, `b-bare-${r}.ndjson`);
      await runBare({ origin: ctx.origin, concurrency: CONC, streaming: true, prompt: 'm', count: COUNT, warm: CONC, records: file });
      return readNdjson(file).map((x) => ({ ...x, complete: x.complete }));
    },
  };
  await getJson(`${ctx.origin}/log`);
  const raw = [];
  for (let r = 0; r < rounds; r++) {
    for (const tool of rotated(['kbbench', 'bare undici'], r)) {
      const l = load1();
      const records = await tools[tool](r);
      const p = pair(records, await serverLog(ctx.origin), 'm-');
      if (p.matched !== COUNT || p.complete !== COUNT) throw new Error(`streams b, ${tool}: ${p.matched} matched, ${p.complete} complete of ${COUNT}`);
      const w = p.onWarm;
      raw.push({
        tool, round: r + 1, load1: l, matched: p.matched, on_warm: p.warm,
        paired_p50: w.paired.p50, paired_p99: w.paired.p99, request_leg_p50: w.request_leg.p50, request_leg_p99: w.request_leg.p99, anchored_p50: w.anchored.p50, anchored_p99: w.anchored.p99,
        direct_p50: w.direct.n > 0 ? w.direct.p50 : null, direct_p99: w.direct.n > 0 ? w.direct.p99 : null,
        all_paired_p50: p.all.paired.p50, all_paired_p99: p.all.paired.p99,
        server_ttfc_p50: w.server_ttfc.p50, server_ttfc_p99: w.server_ttfc.p99, client_ttfc_p50: w.client_ttfc.p50, client_ttfc_p99: w.client_ttfc.p99,
      });
    }
  }
  const med = (tool, key) => median(raw.filter((x) => x.tool === tool && x[key] !== null).map((x) => x[key]));
  const keys = ['load1', 'on_warm', 'paired_p50', 'paired_p99', 'request_leg_p50', 'request_leg_p99', 'anchored_p50', 'anchored_p99', 'direct_p50', 'direct_p99', 'all_paired_p50', 'all_paired_p99', 'server_ttfc_p50', 'server_ttfc_p99', 'client_ttfc_p50', 'client_ttfc_p99'];
  const rows = Object.keys(tools).map((tool) => ({ tool, rounds, ...Object.fromEntries(keys.map((k) => [k, round(med(tool, k), 3)])) }));
  const [kb, bare] = rows;
  const overhead = { paired_p50: round(kb.paired_p50 - bare.paired_p50, 3), paired_p99: round(kb.paired_p99 - bare.paired_p99, 3), anchored_p50: round(kb.anchored_p50 - bare.anchored_p50, 3), anchored_p99: round(kb.anchored_p99 - bare.anchored_p99, 3) };
  return { count: COUNT, concurrency: CONC, rows, overhead, raw };
}

export async function benchStreams({ quick = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'kbbench-bench-streams-'));
  const server = await startKbServer('stamped');
  let a;
  let b;
  try {
    const ctx = { dir, origin: server.origin };
    a = await partA(ctx, quick ? 1 : 3);
    b = await partB(ctx, quick ? 1 : 3);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log('\n== streams: slow streams, the whole kbbench process beside a bare undici loop ==');
  printMethod(
    `bench/servers/kb-server.mjs stamped (child process, 127.0.0.1): headers and the start frame at once, the first text chunk ${server.ready.firstMs} ms after the request ` +
      `arrived, then ${server.ready.chunks - 1} more ${server.ready.gapMs} ms apart on an absolute schedule (${server.ready.chunks} text deltas, finish, usage). The first delta reads ` +
      '`t=<ns> r=<seq> word0 `: process.hrtime.bigint() (CLOCK_MONOTONIC, one clock for every process here) just before that write, and the request\'s number; the server ' +
      'also logs each request\'s arrival time, its first-chunk time and whether its socket had served a request before (GET /log). ' +
      'kbbench = `node dist/cli/main.js run SUITE --base-url ... --concurrency N --retries 0 --timeout 60s --quiet --out TMP` (streaming, the default). ' +
      'bare undici = bench/clients/bare-undici.mjs in its own process: one Pool, N loops, each body read to its end, the first chunk holding "text-delta" timed. ' +
      `a. N = 2,000, 4,000 streams (100 cases x --repeat 40; cold connections for both), ${a.raw.length / 2} round(s), order alternating; complete = 20 text deltas and finish ` +
      '(kbbench: results.ndjson outcome ok, chunks 20, text ends with word19); CPU = user+sys of the process tree (GNU time), start-up and reports included; ' +
      'startup = the same process for one request; marginal = (CPU - startup) / 4,000; server_stream = the server\'s own time from arrival to its last write ' +
      '(1,450 ms when it keeps its schedule); phase = kbbench totals.duration_ms, the bare loop\'s own elapsed time. ' +
      `b. N = 500, 1,000 streams after 500 warm-up requests that the server holds ${server.ready.warmMs} ms, so 500 connections open (kbbench: 500 "warm-i" cases before the 1,000 measured ones in one suite; ` +
      `bare: 500 at once, then a 200 ms pause, and one event-loop turn between a loop's requests so the finished connection is reused), ` +
      `so the measured ones go out on open sockets; only requests the server saw on a reused socket count (on_warm). ${b.raw.length / 2} round(s), order alternating, medians of the rounds' p50/p99. ` +
      'TTFC error, paired = the client\'s TTFC (from just before it sends to the first text chunk it reads) - the server\'s own (first-chunk write - request arrival): the request\'s ' +
      'transit + the response\'s transit + the client\'s delay in reading and decoding it. One-way, anchored = the client\'s first-chunk time on the shared clock - the server\'s stamp, ' +
      'the client\'s time being anchor + offset_ms + ttfc_ms with anchor = min(arrival - offset_ms) over the run (kbbench writes only offsets from its own start); it is too late by the ' +
      'fastest request\'s transit, as the bare loop\'s direct one-way (hrtime when the chunk was read - stamp) shows. ' +
      'request leg = arrival - (anchor + offset_ms): how long after the client timed its send the server saw the request (0 for the fastest, by construction); ' +
      'paired is about request leg + one-way. load1 = the 1-minute load average when the run began (the cores are shared). kbbench\'s offset_ms is taken just before its client is called, sentAt inside it.',
  );
  printTable('streams a: 2,000 in flight, 4,000 streams, every answer complete?', ['tool', 'rounds', 'requests', 'complete_min', 'server_finished_min', 'server_stream_p50_ms', 'server_stream_p99_ms', 'phase_s', 'wall_s', 'cpu_s', 'user_s', 'sys_s', 'startup_cpu_s', 'cpu_us_per_stream', 'marginal_cpu_us_per_stream', 'peak_rss_mb', 'load1'], a.rows);
  console.log(`  ratios kbbench / bare undici: CPU ${a.ratios.cpu}, marginal CPU per stream ${a.ratios.marginal_cpu}, peak RSS ${a.ratios.peak_rss}`);
  printTable('streams b: TTFC error on warm connections, 500 in flight, 1,000 streams (ms, medians of rounds)', ['tool', 'rounds', 'load1', 'on_warm', 'paired_p50', 'paired_p99', 'request_leg_p50', 'request_leg_p99', 'anchored_p50', 'anchored_p99', 'direct_p50', 'direct_p99', 'all_paired_p50', 'all_paired_p99', 'server_ttfc_p50', 'client_ttfc_p50', 'client_ttfc_p99'], b.rows);
  console.log(`  kbbench - bare undici (ms): paired p50 ${b.overhead.paired_p50}, paired p99 ${b.overhead.paired_p99}, anchored p50 ${b.overhead.anchored_p50}, anchored p99 ${b.overhead.anchored_p99}`);
  return { a, b };
}
