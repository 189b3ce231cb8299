// The review server on a real 127.0.0.1 socket: the token and the Host header guard every request, labels
// from two tabs at once are all kept (one O_APPEND write each), and a second review continues from the file.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { answerLabels, parseRunLabels } from '../graders/run-labels.js';
import { writeSyntheticRun } from '../report/test-support/synthetic-run.js';
import { startReviewServer, type ReviewServer } from './server.js';

let server: ReviewServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function reviewOf(repeats = 3) {
  const runDir = join(await mkdtemp(join(tmpdir(), 'kbbench-review-')), 'run');
  const written = await writeSyntheticRun(runDir, { repeats });
  const run = written.run;
  // A skipped turn (never sent) has no answer to review.
  const samples = written.samples.filter((s) => s.outcome !== 'skipped');
  server = await startReviewServer({ runDir, run });
  const token = new URL(server.url).searchParams.get('token')!;
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(new URL('/labels', server!.url), { method: 'POST', headers: { 'content-type': 'application/json', 'x-review-token': token, ...headers }, body: JSON.stringify(body) });
  return { runDir, run, samples, token, post };
}

describe('review server', () => {
  it('serves the page with a nonce CSP and the answers as JSON, only with the token', async () => {
    const { samples } = await reviewOf();
    const page = await fetch(server!.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'nonce-[^']+'/);
    expect(await page.text()).not.toContain('<script>');
    const answers = (await (await fetch(new URL(`/answers.json${new URL(server!.url).search}`, server!.url))).json()) as { answers: unknown[] };
    expect(answers.answers).toHaveLength(samples.length);
    expect((await fetch(new URL('/answers.json', server!.url))).status).toBe(403);
  });

  it('keeps every label of two tabs posting at once, and a second review starts from them', async () => {
    const { runDir, run, samples, post } = await reviewOf();
    const statuses = await Promise.all(samples.map((s, i) => post({ item_id: s.item_id, human: i % 2 === 0 ? 'pass' : 'fail', note: `tab ${i % 2}` })));
    expect(statuses.every((r) => r.status === 200)).toBe(true);
    const text = await readFile(join(runDir, 'labels.csv'), 'utf8');
    expect(answerLabels(parseRunLabels(text, 'labels.csv')).size).toBe(samples.length);
    await server!.close();
    server = await startReviewServer({ runDir, run });
    const labels = (await (await fetch(new URL(`/labels.json${new URL(server.url).search}`, server.url))).json()) as Record<string, unknown>;
    expect(Object.keys(labels)).toHaveLength(samples.length);
  });

  it('refuses a label for an answer the run does not hold, and a body that is not JSON', async () => {
    const { post } = await reviewOf();
    expect((await post({ item_id: 'nope', human: 'pass' })).status).toBe(400);
    expect((await post({ item_id: 'x', human: 'maybe' })).status).toBe(400);
  });

  it('serves several hundred answers in one answers.json', async () => {
    await reviewOf(40);
    const body = await (await fetch(new URL(`/answers.json${new URL(server!.url).search}`, server!.url))).text();
    expect((JSON.parse(body) as { answers: unknown[] }).answers.length).toBe(719);
  });
});
