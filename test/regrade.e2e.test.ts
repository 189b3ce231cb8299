// `kbbench regrade` end to end: a live run against `kbbench serve` (a real process on 127.0.0.1, counted
// by a proxy) graded by an OpenAI-compatible server, then judged again with changed checks: nothing
// reaches the service, and exactly the items the changed check now fails fail.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegradeInfo } from '../src/domain/run.js';
import type { Sample } from '../src/domain/sample.js';
import { readJson, readNdjson, runCliInProcess as runCli, startCountingProxy, startServe, tempDir, type CountingProxy, type ServeHandle } from './helpers.js';
import { GRADER_MODEL, sectionOf, startOpenAiGraderServer, type OpenAiGraderServer } from './openai-grader-server.js';

const GRADER_KEY = 'sk-grader-regrade-7777';

const suiteText = (graderUrl: string, edits: { refundCheck?: string; trialPrompt?: string; extra?: string } = {}): string => `name: regrade-e2e
target: { board_id: winter-frost-CJk4G, chat_id: chatNode-patient-star-4uIJt }
models: [gpt-4o, gpt-4o-mini]
grader: { openai: { base_url: "${graderUrl}", model: ${GRADER_MODEL} } }
cases:
  - id: refund-window
    prompt: How long do customers have to ask for a refund?
    assert:
      - contains: ${edits.refundCheck ?? '30 days'}
  - id: team-price
    prompt: How much does the Team plan cost?
    assert:
      - contains: €29
      - llm-rubric: The answer names a price.
  - id: free-trial
    prompt: ${edits.trialPrompt ?? 'How long is the free trial?'}
    assert:
      - contains: 14-day
${edits.extra ?? ''}threads:
  - id: onboarding
    turns:
      - prompt: Which plans include single sign-on?
        assert: [ { icontains: business } ]
      - prompt: And how much does the Team plan cost?
        assert: [ { contains: "€" } ]
`;

describe('kbbench regrade', () => {
  let serve: ServeHandle;
  let proxy: CountingProxy;
  let grader: OpenAiGraderServer;
  const dir = tempDir('kbbench-regrade-');
  const source = join(dir, 'source');
  const write = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const env = (): Record<string, string> => ({ KBBENCH_API_KEY: serve.key, KBBENCH_GRADER_API_KEY: GRADER_KEY });
  const completions = (): number => grader.requests.filter((r) => r.path === '/v1/chat/completions').length;

  beforeAll(async () => {
    serve = await startServe(['--latency-scale', '0', '--seed', '3']);
    proxy = await startCountingProxy(serve.url);
    grader = await startOpenAiGraderServer(GRADER_KEY);
    grader.reply((prompt) => JSON.stringify({ pass: /€/.test(sectionOf(prompt, 'ANSWER')), score: 1, reason: 'names a price' }));
    const suite = write('suite.yaml', suiteText(grader.url));
    const r = await runCli(['run', suite, '--base-url', proxy.url, '--out', source, '--quiet'], { env: env() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await proxy?.stop();
    await serve?.stop();
    await grader?.stop();
  });

  it('with one check changed: sends 0 requests to the service and fails exactly the items that check now fails', async () => {
    const stored = readNdjson<Sample>(join(source, 'results.ndjson'));
    expect(stored.filter((s) => s.endpoint !== 'create').every((s) => typeof s.question_key === 'string' && s.question_key.length === 64)).toBe(true);
    const sentBefore = proxy.requests();
    const gradedBefore = completions();
    const changed = write('changed.yaml', suiteText(grader.url, { refundCheck: '31 days' }));
    const out = join(dir, 'regraded');
    // The source run's verdicts sit in the tests' default cache: --no-grader-cache asks the grader again.
    const r = await runCli(['regrade', source, '--suite', changed, '--out', out, '--no-grader-cache'], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/reused 10 answers of \S+ \(not asked\): credits spent now 0\.0+, saved [1-9.0]+/);
    expect(proxy.requests()).toBe(sentBefore);
    // The model-graded check was judged again (team-price on 2 models), by the grader alone.
    expect(completions() - gradedBefore).toBe(2);
    const lines = readNdjson<Sample>(join(out, 'results.ndjson'));
    const answers = lines.filter((s) => s.endpoint !== 'create');
    expect(answers).toHaveLength(stored.filter((s) => s.endpoint !== 'create').length);
    expect(answers.filter((s) => !s.pass).map((s) => s.item_id).sort()).toEqual(['case:refund-window|model:gpt-4o-mini|r1', 'case:refund-window|model:gpt-4o|r1']);
    const run = readJson<{ run_id: string; regrade: RegradeInfo; config: { record: { purpose?: string } } }>(join(out, 'run.json'));
    const sourceRun = readJson<{ run_id: string }>(join(source, 'run.json'));
    expect(run.regrade).toMatchObject({ source_run_id: sourceRun.run_id, source_dir: source, judged_again: 10, kept_failed: 0, question_changed: 0, never_asked: 0, left_out: 0 });
    expect(run.config.record.purpose).toBe('regrade');
    expect(lines.every((s) => s.reused_from === sourceRun.run_id)).toBe(true);
    // The answers are the stored ones, byte for byte.
    expect(answers.map((s) => s.text)).toEqual(answers.map((s) => stored.find((t) => t.item_id === s.item_id)!.text));
    const summary = readJson<{ verdict: string; credits?: { saved?: number }; totals: { credits_used: number } }>(join(out, 'summary.json'));
    expect(summary.verdict).toBe('fail');
    // Counted as --reuse-answers counts: the stored answers' cost saved, nothing spent on answers now.
    const cost = stored.filter((s) => s.endpoint !== 'create').reduce((sum, s) => sum + (s.credits_used ?? 0), 0);
    expect(cost).toBeGreaterThan(0);
    expect(summary.credits?.saved).toBeCloseTo(cost, 5);
    expect(summary.totals.credits_used).toBe(0);
    expect(answers.every((s) => s.credits_used === 0 && s.credits_saved === stored.find((t) => t.item_id === s.item_id)!.credits_used)).toBe(true);
    for (const file of ['report.html', 'junit.xml', 'samples.csv', 'cases.csv', 'summary.csv']) expect(existsSync(join(out, file))).toBe(true);
  }, 60_000);

  it('a changed question is not judged and a new one is missing: verdict incomplete (exit 3), unless --fail-on allows them', async () => {
    const sentBefore = proxy.requests();
    const extra = '  - id: new-question\n    prompt: Does Cobalt Desk have an API?\n    assert:\n      - icontains: api\n';
    const changed = write('questions.yaml', suiteText(grader.url, { trialPrompt: 'How many days is the free trial?', extra }));
    const out = join(dir, 'questions');
    const r = await runCli(['regrade', source, '--suite', changed, '--out', out], { env: env() });
    expect(r.code).toBe(3);
    const run = readJson<{ regrade: RegradeInfo }>(join(out, 'run.json'));
    expect(run.regrade).toMatchObject({ judged_again: 8, question_changed: 2, never_asked: 2 });
    expect(run.regrade.never_asked_items.sort()).toEqual(['case:new-question|model:gpt-4o-mini|r1', 'case:new-question|model:gpt-4o|r1']);
    const trial = readNdjson<Sample>(join(out, 'results.ndjson')).filter((s) => s.case_id === 'free-trial');
    expect(trial.map((s) => s.not_judged)).toEqual(['the question changed since it was answered', 'the question changed since it was answered']);
    expect(trial.every((s) => s.checks.every((c) => c.pass === null))).toBe(true);
    const allowed = await runCli(['regrade', source, '--suite', changed, '--out', join(dir, 'allowed'), '--fail-on', 'checks,thresholds', '--quiet'], { env: env() });
    expect(allowed.code).toBe(0);
    expect(proxy.requests()).toBe(sentBefore);
  }, 60_000);

  it('a second regrade of unchanged model-graded checks makes 0 grader calls (--grader-cache DIR); --no-grader-cache asks again', async () => {
    const cache = join(dir, 'verdict-cache');
    const regrade = async (out: string, ...cacheFlags: string[]): Promise<{ asked: number; checks: Sample['checks'] }> => {
      const before = completions();
      const r = await runCli(['regrade', source, '--out', join(dir, out), '--quiet', ...cacheFlags], { env: env() });
      expect(r.code).toBe(0);
      const checks = readNdjson<Sample>(join(dir, out, 'results.ndjson')).flatMap((s) => s.checks).filter((c) => c.grader !== undefined);
      return { asked: completions() - before, checks };
    };
    const first = await regrade('cache-first', '--grader-cache', cache);
    expect(first.asked).toBe(2);
    expect(first.checks).toHaveLength(2);
    expect(first.checks.every((c) => c.cached === undefined)).toBe(true);
    const second = await regrade('cache-second', '--grader-cache', cache);
    expect(second.asked).toBe(0);
    expect(second.checks).toHaveLength(2);
    expect(second.checks.every((c) => c.cached === true && c.pass === true)).toBe(true);
    expect((await regrade('cache-off', '--no-grader-cache')).asked).toBe(2);
    const both = await runCli(['regrade', source, '--out', join(dir, 'cache-both'), '--grader-cache', cache, '--no-grader-cache'], { env: env() });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give --grader-cache DIR or --no-grader-cache, not both');
  }, 60_000);

  it('--baseline compares the regrade with a run: the changed check is a regression (exit 1)', async () => {
    const changed = write('baseline.yaml', suiteText(grader.url, { refundCheck: '31 days' }));
    const out = join(dir, 'against-baseline');
    const r = await runCli(['regrade', source, '--suite', changed, '--out', out, '--baseline', source, '--quiet'], { env: env() });
    expect(r.code).toBe(1);
    const comparison = readJson<{ regressions: { item_id: string }[] }>(join(out, 'compare.json'));
    expect(comparison.regressions.map((x) => x.item_id).sort()).toEqual(['case:refund-window|model:gpt-4o', 'case:refund-window|model:gpt-4o-mini']);
  }, 60_000);

  it('refuses a grader chat of the service (it would be asked) before anything is written (exit 2)', async () => {
    const out = join(dir, 'chat-grader');
    const chatGraded = write('chat-grader.yaml', suiteText(grader.url).replace(/grader: \{ openai: .*\}\n/, 'grader: { chat_id: chatNode-patient-star-4uIJt }\n'));
    const r = await runCli(['regrade', source, '--suite', chatGraded, '--out', out], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('kbbench regrade sends nothing to the service');
    expect(existsSync(out)).toBe(false);
  });
});
