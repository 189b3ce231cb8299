// kbbench as a library: the published entry (dist/index.js) runs a suite end to end without the CLI.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type * as Kbbench from '../src/index.js';
import { ROOT } from './helpers.js';

type Lib = typeof Kbbench;

describe('the programmatic API', () => {
  it('loads a suite, plans it, runs it against the reference service and summarises', async () => {
    const lib = (await import(join(ROOT, 'dist', 'index.js'))) as Lib;
    const service = await lib.startReferenceService({ latencyScale: 0 });
    const client = lib.createClient({ baseUrl: service.url, apiKey: service.keys[0]! });
    try {
      const suite = await lib.loadSuite(join(ROOT, 'test/fixtures/e2e/small.yaml'));
      const plan = lib.buildPlan(suite, { models: ['gpt-4o-mini'] });
      const handle = lib.startRun(plan, {
        client, target: { boardId: suite.target.board_id!, chatId: suite.target.chat_id! }, concurrency: 2, timeoutMs: 10_000, retries: 0,
        check: (specs, subject) => lib.runChecks(specs, subject), stop: new AbortController().signal, abort: new AbortController().signal,
      });
      const summarizer = lib.createSummarizer();
      let count = 0;
      for await (const event of handle.events) {
        if (event.type !== 'sample') continue;
        summarizer.add(event.sample);
        count += 1;
      }
      const { summary } = summarizer.finish({ run_id: 'lib', status: 'completed' });
      expect(count).toBe(plan.counts.requests);
      expect(summary.totals.requests).toBe(7);
      expect(summary.totals.pass_rate).toBe(1);
      expect(handle.ledger.spent).toBeCloseTo(summary.totals.credits_used, 5);
    } finally {
      await client.close();
      await service.close();
    }
  });
});
