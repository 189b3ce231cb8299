// One layer of kbbench driven alone, in a process of its own, for bench/layers.mjs: the same closed
// loop of N JSON requests the bare undici loop sends, through
//   client -> createClient().ask() in 32 loops (the client: request building, the dispatch handler,
//             decoding, the answer's marks), nothing recorded;
//   runner -> startRun() over the plan of a 100-case suite (the runner: plan units, the gate, retries,
//             the Sample, checks), its events iterated and dropped: no session, no results file.
// Prints one JSON line: { requests, errors, elapsed_ms }.
//   node kbbench-layer.mjs '<json: { layer, origin, board, chat, apiKey, suite, repeat, concurrency, prompt }>'
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const o = JSON.parse(process.argv[2]);
const lib = await import(fileURLToPath(new URL('../../dist/index.js', import.meta.url)));
const client = lib.createClient({ baseUrl: o.origin, apiKey: o.apiKey });
// The same preflight a run makes (a board list), so the pool and the parser are set up alike.
await client.listBoards();

async function clientLayer() {
  const total = o.repeat * 100;
  let next = 0;
  let requests = 0;
  let errors = 0;
  const start = performance.now();
  const worker = async () => {
    while (next++ < total) {
      try {
        await client.ask({ boardId: o.board, chatId: o.chat, prompt: o.prompt, streaming: false, includeUsage: false, method: 'post' });
        requests++;
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  return { requests, errors, elapsed_ms: performance.now() - start };
}

async function runnerLayer() {
  const suite = await lib.loadSuite(o.suite);
  const plan = lib.buildPlan(suite, { repeat: o.repeat, defaults: { streaming: false } });
  const start = performance.now();
  const handle = lib.startRun(plan, {
    client, target: { boardId: o.board, chatId: o.chat }, concurrency: o.concurrency, timeoutMs: 120_000, retries: 0,
    check: (specs, subject) => lib.runChecks(specs, subject), stop: new globalThis.AbortController().signal, abort: new globalThis.AbortController().signal,
  });
  let requests = 0;
  let errors = 0;
  for await (const event of handle.events) {
    if (event.type !== 'sample') continue;
    if (event.sample.outcome === 'ok') requests++;
    else errors++;
  }
  return { requests, errors, elapsed_ms: performance.now() - start };
}

const result = o.layer === 'client' ? await clientLayer() : await runnerLayer();
await client.close();
console.log(JSON.stringify(result));
