// Graders you can trust, end to end: no silent self-grade, a grader checked before anything is sent,
// "not judged" apart from "wrong" (exit 3, never a regression), an OpenAI-compatible grader on 127.0.0.1.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { readJson, readNdjson, ROOT, runCliInProcess as runCli, tempDir } from './helpers.js';
import { GRADER_MODEL, sectionOf, startOpenAiGraderServer, type OpenAiGraderServer } from './openai-grader-server.js';

const PARCELS = 'suites/parcel-lockers/suite.yaml';
const WORKSPACE = join(ROOT, 'suites/parcel-lockers/workspace.yaml');
const GRADER_KEY = 'sk-grader-secret-4242-abcd';

function everyFileOf(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

function suiteFile(dir: string, body: string, name = 'suite.yaml'): string {
  const path = join(dir, name);
  writeFileSync(path, body);
  return path;
}

const PICKUP_CASE = `cases:
  - id: pickup-window
    prompt: How long do I have to collect my parcel?
    assert:
      - llm-rubric: 'The answer must mention "72 hours".'
`;

describe('a model-graded check needs a grader', () => {
  it('with none named, run and validate exit 2 at the check\'s file:line, before anything is sent (was: a silent self-grade that failed)', async () => {
    const dir = tempDir();
    const yaml = suiteFile(dir, `name: nograder\nworkspace: ${WORKSPACE}\n${PICKUP_CASE}`);
    const out = join(dir, 'run');
    const run = await runCli(['run', yaml, '--latency-scale', '0', '--out', out]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`${yaml.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:7:\\d+ judge: a judge check needs a grader`));
    expect(existsSync(out)).toBe(false);
    const csv = join(dir, 'faq.csv');
    writeFileSync(csv, 'id,prompt,__expected\nq1,How long do I have to collect my parcel?,llm-rubric: mentions 72 hours\n');
    const validate = await runCli(['validate', csv]);
    expect(validate.code).toBe(2);
    expect(validate.stderr).toContain(`${csv}:2`);
    // A CSV suite names its grader by flag.
    const named = await runCli(['validate', csv, '--grader-chat', 'chatNode-locker-grader', '--grader-model', 'gpt-4o-mini']);
    expect(named.code).toBe(0);
    expect(named.stdout).toContain('case q1: judge → chat chatNode-locker-grader (gpt-4o-mini)');
  });

  it('a grader chat that does not exist is an input error before any question (was: every check failed)', async () => {
    const dir = tempDir();
    const yaml = suiteFile(dir, `name: badgrader\nworkspace: ${WORKSPACE}\ngrader: { chat_id: chatNode-nobody }\n${PICKUP_CASE}`);
    const out = join(dir, 'run');
    const r = await runCli(['run', yaml, '--latency-scale', '0', '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/grader chat chatNode-nobody is not a chat of board boxly-help/);
    expect(existsSync(join(out, 'results.ndjson'))).toBe(false);
  });

  it('validate names the grader each check will use', async () => {
    const r = await runCli(['validate', PARCELS]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("model-graded checks: 6; the run's grader: chat chatNode-locker-grader (gpt-4o-mini)");
    expect(r.stdout).toContain('case two-factor: context-faithfulness → chat chatNode-locker-grader (gpt-4o-mini)');
  });
});

describe('not judged is a third state', () => {
  it('a failing grader leaves checks not judged: pass null with the reason, out of the pass rate, verdict incomplete (exit 3), and no regression in compare', async () => {
    const dir = tempDir();
    const base = join(dir, 'base');
    const head = join(dir, 'head');
    const good = await runCli(['run', PARCELS, '--latency-scale', '0', '--out', base, '--quiet']);
    expect(good.code).toBe(0);
    const goodSummary = readJson<{ grading: { graders: { grader: string; credits_used: number }[]; credits_used: number }; totals: { answer_credits_used: number; grader_credits_used: number } }>(join(base, 'summary.json'));
    expect(goodSummary.grading.graders[0]!.grader).toBe('chat chatNode-locker-grader (gpt-4o-mini)');
    expect(goodSummary.grading.credits_used).toBeGreaterThan(0);
    expect(goodSummary.totals.grader_credits_used).toBe(goodSummary.grading.credits_used);

    const bad = await runCli(['run', PARCELS, '--latency-scale', '0', '--out', head, '--judge-fault-rate', '1']);
    expect(bad.code).toBe(3);
    expect(bad.stdout).toMatch(/verdict INCOMPLETE/);
    expect(bad.stdout).toMatch(/answers could not be judged/);
    const samples = readNdjson<Sample>(join(head, 'results.ndjson'));
    const graded = samples.flatMap((s) => s.checks).filter((c) => c.grader !== undefined);
    expect(graded.length).toBe(12);
    expect(graded.every((c) => c.pass === null && typeof c.not_judged === 'string')).toBe(true);
    // Both faults occur: a 500 (request failed, after retries) and babble (unparseable twice).
    expect(graded.some((c) => /request failed/.test(c.not_judged!))).toBe(true);
    expect(graded.some((c) => /twice/.test(c.not_judged!) && c.grader_replies!.length === 2)).toBe(true);
    const summary = readJson<{ verdict: string; totals: { not_judged: number; pass_rate: number; failed: number }; models: Record<string, { not_judged: number }>; gates: { incomplete: string[] } }>(join(head, 'summary.json'));
    expect(summary.verdict).toBe('incomplete');
    expect(summary.gates.incomplete).toEqual(['judged']);
    expect(summary.totals.not_judged).toBe(8);
    expect(summary.totals.failed).toBe(0);
    expect(summary.totals.pass_rate).toBe(1);
    expect(summary.models['gpt-4o-mini']!.not_judged).toBe(4);

    // report.html: the pass rate says how many were not judged; grading has its own figure, apart from the answers.
    const html = readFileSync(join(head, 'report.html'), 'utf8');
    expect(html).toContain('8 not judged');
    expect(html).toMatch(/Grading[\s\S]*answers [\d.]+ credits · by chat chatNode-locker-grader \(gpt-4o-mini\)/);

    const allowed = await runCli(['report', head, '--fail-on', 'checks,thresholds']);
    expect(allowed.code).toBe(0);

    const compare = await runCli(['compare', base, head, '--out', join(dir, 'cmp')]);
    const cmp = readJson<{ regressions: unknown[] }>(join(dir, 'cmp', 'compare.json'));
    expect(cmp.regressions).toEqual([]);
    expect(compare.stdout).not.toMatch(/[1-9]\d* regressions?/);
  });
});

describe('an OpenAI-compatible grader on 127.0.0.1', () => {
  let grader: OpenAiGraderServer;
  beforeAll(async () => {
    grader = await startOpenAiGraderServer(GRADER_KEY);
  });
  afterAll(async () => grader.stop());

  it('grades with the key from KBBENCH_GRADER_API_KEY (sent as a bearer token, redacted everywhere), counts its tokens apart, and names its model', async () => {
    grader.reply((prompt) => JSON.stringify({ pass: /72 hours/.test(sectionOf(prompt, 'ANSWER')), score: 1, reason: `checked with ${GRADER_KEY}` }));
    const dir = tempDir();
    const yaml = suiteFile(dir, `name: outside\nworkspace: ${WORKSPACE}\nmodels: [gpt-4o-mini]\ngrader: { openai: { base_url: "${grader.url}", model: ${GRADER_MODEL} } }\n${PICKUP_CASE}`);
    const out = join(dir, 'run');
    const r = await runCli(['run', yaml, '--latency-scale', '0', '--out', out], { env: { KBBENCH_GRADER_API_KEY: GRADER_KEY } });
    expect(r.code).toBe(0);
    const [sample] = readNdjson<Sample>(join(out, 'results.ndjson'));
    const check = sample!.checks[0]!;
    expect(check).toMatchObject({ type: 'judge', pass: true, grader: `openai ${grader.url} ${GRADER_MODEL}`, grader_tokens: 42 });
    expect(check.credits_used).toBeUndefined();
    expect(grader.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /v1/models', 'POST /v1/chat/completions']);
    expect(grader.requests[1]!.body?.model).toBe(GRADER_MODEL);
    const summary = readJson<{ grading: { tokens: number; credits_used: number } }>(join(out, 'summary.json'));
    expect(summary.grading).toMatchObject({ tokens: 42, credits_used: 0 });
    expect(r.stdout).toContain('42 grader tokens');
    for (const text of [r.stdout, r.stderr, everyFileOf(out)]) expect(text).not.toContain(GRADER_KEY);
    expect(JSON.stringify(check.grader_replies)).toContain('[redacted]');
  });

  it('with flags on a CSV suite: a grader error leaves the check not judged (exit 3); a model the endpoint does not serve is exit 2', async () => {
    const dir = tempDir();
    const csv = join(dir, 'faq.csv');
    writeFileSync(csv, 'id,prompt,__expected\nq1,How long do I have to collect my parcel?,factuality: You have 72 hours to collect a parcel.\n');
    grader.reply(() => ({ status: 500 }));
    const flags = ['--workspace', WORKSPACE, '--models', 'gpt-4o-mini', '--latency-scale', '0', '--grader-url', grader.url, '--retries', '0'];
    const keyFile = join(dir, 'grader.key');
    writeFileSync(keyFile, `${GRADER_KEY}\n`, { mode: 0o600 });
    const out = join(dir, 'run');
    const broken = await runCli(['run', csv, ...flags, '--grader-model', GRADER_MODEL, '--grader-key-file', keyFile, '--out', out]);
    expect(broken.code).toBe(3);
    const [sample] = readNdjson<Sample>(join(out, 'results.ndjson'));
    expect(sample!.checks[0]).toMatchObject({ type: 'factuality', pass: null, not_judged: expect.stringMatching(/HTTP 500/) });
    const unknown = await runCli(['run', csv, ...flags, '--grader-model', 'gpt-9', '--grader-key-file', keyFile, '--out', join(dir, 'run2')]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/grader model gpt-9 is not served by/);
    const noKey = await runCli(['run', csv, ...flags, '--grader-model', GRADER_MODEL, '--out', join(dir, 'run3')]);
    expect(noKey.code).toBe(3);
    expect(noKey.stderr).toMatch(/rejected its key/);
  });

  it('grader-check reports agreement with people: accuracy, kappa and the disagreements', async () => {
    // A strict grader: passes an answer only when it repeats the reference word for word.
    grader.reply((prompt) => {
      const reference = sectionOf(prompt, 'REFERENCE');
      const answer = sectionOf(prompt, 'ANSWER');
      return JSON.stringify({ pass: reference !== '' && answer.includes(reference), reason: 'word for word' });
    });
    const dir = tempDir();
    const labels = join(dir, 'labels.csv');
    writeFileSync(labels, [
      'id,answer,reference,human',
      'same,You have 72 hours.,You have 72 hours.,pass',
      'wrong,You have 48 hours.,You have 72 hours.,fail',
      'reworded,Three days (72 hours).,You have 72 hours.,pass',
      'also-wrong,Two days.,You have 72 hours.,fail',
    ].join('\n'));
    const r = await runCli(['grader-check', labels, '--grader-url', grader.url, '--grader-model', GRADER_MODEL, '--json'], { env: { KBBENCH_GRADER_API_KEY: GRADER_KEY } });
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout) as { agreement: { n: number; accuracy: number; kappa: number }; disagreements: { id: string; human: string; grader: string }[]; tokens: number };
    expect(result.agreement).toMatchObject({ n: 4, accuracy: 0.75, kappa: 0.5 });
    expect(result.disagreements.map((d) => [d.id, d.human, d.grader])).toEqual([['reworded', 'pass', 'fail']]);
    expect(result.tokens).toBe(4 * 42);
  });
});
