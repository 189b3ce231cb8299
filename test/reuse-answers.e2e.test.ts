// `run --reuse-answers` end to end: a live run against `kbbench serve` (a real process on 127.0.0.1,
// behind a proxy that records every question it forwards), then runs that take its answers: only the
// questions whose content key changed reach the service, a thread is asked whole or not at all.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { demoWorkspaceWithRefundWindowChanged, readJson, readNdjson, runCliInProcess as runCli, startCountingProxy, startServe, tempDir, type CountingProxy, type ServeHandle } from './helpers.js';

const suiteText = (edits: { extra?: string; refundContext?: string; secondTurn?: string } = {}): string => `name: reuse-e2e
target: { board_id: winter-frost-CJk4G, chat_id: chatNode-patient-star-4uIJt }
models: [gpt-4o, gpt-4o-mini]
cases:
  - id: refund-window
    prompt: How long do customers have to ask for a refund?
${edits.refundContext ? `    additional_context: "${edits.refundContext}"\n` : ''}    assert:
      - icontains: refund
  - id: team-price
    prompt: How much does the Team plan cost?
    assert:
      - contains: €
${edits.extra ?? ''}threads:
  - id: onboarding
    turns:
      - prompt: Which plans include single sign-on?
      - prompt: ${edits.secondTurn ?? 'And how much does the Team plan cost?'}
`;

const NEW_QUESTIONS = `  - id: api
    prompt: Does Cobalt Desk have an API?
  - id: trial
    prompt: How long is the free trial?
`;

describe('kbbench run --reuse-answers', () => {
  let serve: ServeHandle;
  let proxy: CountingProxy;
  const dir = tempDir('kbbench-reuse-');
  const source = join(dir, 'source');
  let sourceRunId = '';
  const write = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const env = (): Record<string, string> => ({ KBBENCH_API_KEY: serve.key });
  /** What one run asked the service: the prompts per model. */
  const askedDuring = async (args: string[]): Promise<{ code: number | null; stderr: string; stdout: string; asked: { model: unknown; prompt: unknown }[] }> => {
    const before = proxy.asked().length;
    const r = await runCli(['run', ...args, '--base-url', proxy.url, '--quiet'], { env: env() });
    return { ...r, asked: proxy.asked().slice(before).map((b) => ({ model: b.model, prompt: b.prompt })) };
  };
  const byModel = (asked: { model: unknown }[]): Record<string, number> => {
    const counts: Record<string, number> = {};
    for (const a of asked) counts[String(a.model)] = (counts[String(a.model)] ?? 0) + 1;
    return counts;
  };

  beforeAll(async () => {
    serve = await startServe(['--latency-scale', '0', '--seed', '3']);
    proxy = await startCountingProxy(serve.url);
    const r = await askedDuring([write('suite.yaml', suiteText()), '--kb-version', 'docs-v1', '--out', source]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.asked).toHaveLength(8);
    sourceRunId = readJson<{ run_id: string }>(join(source, 'run.json')).run_id;
  }, 60_000);
  afterAll(async () => {
    await proxy?.stop();
    await serve?.stop();
  });

  it('with two new questions sends only those two (per model); the rest are the stored answers, marked and judged', async () => {
    const out = join(dir, 'two-new');
    const r = await askedDuring([write('two-new.yaml', suiteText({ extra: NEW_QUESTIONS })), '--reuse-answers', source, '--kb-version', 'docs-v1', '--out', out]);
    expect(r.code).toBe(0);
    expect(byModel(r.asked)).toEqual({ 'gpt-4o': 2, 'gpt-4o-mini': 2 });
    expect(new Set(r.asked.map((a) => a.prompt))).toEqual(new Set(['Does Cobalt Desk have an API?', 'How long is the free trial?']));
    const lines = readNdjson<Sample>(join(out, 'results.ndjson'));
    const stored = readNdjson<Sample>(join(source, 'results.ndjson'));
    const reused = lines.filter((s) => s.reused_from !== undefined);
    expect(reused).toHaveLength(8);
    expect(reused.every((s) => s.reused_from === sourceRunId && s.credits_used === 0 && s.ttfc_ms === null && s.latency_ms === null)).toBe(true);
    // The stored answers, byte for byte, judged again by this suite's checks.
    for (const s of reused) {
      const was = stored.find((t) => t.item_id === s.item_id)!;
      expect(s.text).toBe(was.text);
      expect(s.credits_saved).toBe(was.credits_used);
      expect(s.reused_latency_ms).toBe(was.latency_ms);
    }
    expect(reused.filter((s) => s.case_id === 'team-price').every((s) => s.checks.length === 1 && s.checks[0]!.pass === true)).toBe(true);
    // No conversation is created for a reused thread.
    expect(lines.filter((s) => s.endpoint === 'create')).toHaveLength(0);
    const saved = stored.filter((s) => s.endpoint !== 'create').reduce((sum, s) => sum + (s.credits_used ?? 0), 0);
    const summary = readJson<{ credits?: { saved?: number }; totals: { reused?: number } }>(join(out, 'summary.json'));
    expect(summary.totals.reused).toBe(8);
    expect(summary.credits?.saved).toBeCloseTo(saved, 5);
  }, 60_000);

  it('a changed additional context is asked again', async () => {
    const r = await askedDuring([write('context.yaml', suiteText({ refundContext: 'The customer is on the Team plan.' })), '--reuse-answers', source, '--kb-version', 'docs-v1', '--out', join(dir, 'context')]);
    expect(r.code).toBe(0);
    expect(r.asked.every((a) => a.prompt === 'How long do customers have to ask for a refund?')).toBe(true);
    expect(byModel(r.asked)).toEqual({ 'gpt-4o': 1, 'gpt-4o-mini': 1 });
  }, 60_000);

  it('another --kb-version asks everything again', async () => {
    const r = await askedDuring([join(dir, 'suite.yaml'), '--reuse-answers', source, '--kb-version', 'docs-v2', '--out', join(dir, 'other-kb')]);
    expect(r.code).toBe(0);
    expect(byModel(r.asked)).toEqual({ 'gpt-4o': 4, 'gpt-4o-mini': 4 });
  }, 60_000);

  it('a thread whose second turn changed is asked whole, its unchanged first turn too', async () => {
    const out = join(dir, 'thread');
    const r = await askedDuring([write('thread.yaml', suiteText({ secondTurn: 'And does it include an API?' })), '--reuse-answers', source, '--kb-version', 'docs-v1', '--out', out]);
    expect(r.code).toBe(0);
    expect(byModel(r.asked)).toEqual({ 'gpt-4o': 2, 'gpt-4o-mini': 2 });
    expect(new Set(r.asked.map((a) => a.prompt))).toEqual(new Set(['Which plans include single sign-on?', 'And does it include an API?']));
    const lines = readNdjson<Sample>(join(out, 'results.ndjson'));
    expect(lines.filter((s) => s.thread_id === 'onboarding').every((s) => s.reused_from === undefined)).toBe(true);
  }, 60_000);

  it('records its sources and label in run.json', () => {
    const run = readJson<{ config: { record: { reuseAnswers?: string[] }; target: { kbVersion?: string } } }>(join(dir, 'two-new', 'run.json'));
    expect(run.config).toMatchObject({ record: { reuseAnswers: [source] }, target: { kbVersion: 'docs-v1' } });
  });

  it('the embedded service: its documents are its knowledge base; the same documents reuse every answer, changed ones none', async () => {
    const first = join(dir, 'embedded-a');
    expect((await runCli(['run', 'suites/demo.yaml', '--latency-scale', '0', '--out', first, '--quiet'])).code).toBe(0);
    const again = join(dir, 'embedded-b');
    const r = await runCli(['run', 'suites/demo.yaml', '--latency-scale', '0', '--reuse-answers', first, '--fail-on', 'checks,thresholds', '--threshold', 'latency_ms=p(95)<2000', '--out', again, '--quiet']);
    expect(r.code).toBe(0);
    const summary = readJson<{ totals: { requests: number; reused?: number; credits_used: number }; thresholds: { metric: string; pass: boolean; not_judged?: string }[] }>(join(again, 'summary.json'));
    expect(summary.totals.reused).toBe(summary.totals.requests);
    expect(summary.totals.credits_used).toBe(0);
    // No answer was asked, so no timing was measured: the timing threshold is not judged, not failed.
    expect(summary.thresholds.find((t) => t.metric === 'latency_ms')).toMatchObject({ pass: true, not_judged: 'every answer was reused' });
    const changed = join(dir, 'embedded-c');
    const workspace = demoWorkspaceWithRefundWindowChanged(join(dir, 'ws'));
    await runCli(['run', 'suites/demo.yaml', '--workspace', workspace, '--latency-scale', '0', '--reuse-answers', first, '--out', changed, '--quiet']);
    expect(readJson<{ totals: { reused?: number } }>(join(changed, 'summary.json')).totals.reused).toBeUndefined();
  }, 120_000);

  it('against a live service without --kb-version: exit 2 naming the flag, nothing sent', async () => {
    const before = proxy.requests();
    const out = join(dir, 'no-label');
    const r = await runCli(['run', join(dir, 'suite.yaml'), '--reuse-answers', source, '--base-url', proxy.url, '--out', out], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--kb-version');
    expect(proxy.requests()).toBe(before);
    expect(existsSync(join(out, 'results.ndjson'))).toBe(false);
  });
});
