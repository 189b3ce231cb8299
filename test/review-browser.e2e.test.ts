// `kbbench review` in a real Chromium: label with the keyboard, reload, labels kept, filter to disagreements,
// a hostile answer inert; requests with another Host or no token change nothing; grader-check and report read the labels.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ROOT, runCli, tempDir } from './helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`review-browser.e2e.test.ts skipped: ${CHROMIUM} does not exist (install Debian's chromium package to run it).`);
/** KBBENCH_REVIEW_SCREENSHOT=1 writes docs/review.png (the screenshot docs/review.md shows). */
const screenshot = process.env.KBBENCH_REVIEW_SCREENSHOT === '1';

/** docs/review.md's `npx kbbench` lines, its run directory replaced by this test's: the walk-through this test follows. */
const DOC_RUN_DIR = 'reports/reviewed';
function docCommands(runDir: string): string[][] {
  const text = readFileSync(join(ROOT, 'docs', 'review.md'), 'utf8');
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((m) => (m[1] ?? '').split('\n'))
    .map((line) => line.trim())
    .filter((line) => line.startsWith('npx kbbench '))
    .map((line) => line.split(/\s+/).slice(2).map((arg) => (arg === DOC_RUN_DIR ? runDir : arg)));
}

const HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script><b>bold?</b>';

/** One raw request, with whatever Host and headers a hostile page (or DNS rebinding) would send. */
function raw(port: number, path: string, headers: Record<string, string>, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: body === undefined ? 'GET' : 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe.skipIf(!hasChromium)('kbbench review in Chromium', () => {
  const dir = tempDir('kbbench-review-');
  const runDir = join(dir, 'run');
  let review: ChildProcess;
  let url = '';
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  const offsite: string[] = [];

  const doc = docCommands(runDir);
  const step = (name: string): string[] => doc.find((args) => args[0] === name)!;

  beforeAll(async () => {
    expect(doc.map((args) => args[0])).toEqual(['run', 'review', 'grader-check', 'report']);
    const ran = await runCli([...step('run'), '--quiet'], { timeoutMs: 60_000 });
    expect(ran.code, ran.stderr).toBe(0);
    // One answer made hostile (as a compromised knowledge base could make it): its markup must stay text.
    const lines = readFileSync(join(runDir, 'results.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const target = lines.find((l) => l.item_id === 'case:two-factor|model:gpt-4o-mini|r1')!;
    target.text = HOSTILE;
    writeFileSync(join(runDir, 'results.ndjson'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    review = spawn(process.execPath, [CLI, ...step('review')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('kbbench review printed no URL')), 20_000);
      createInterface({ input: review.stdout! }).on('line', (line) => {
        const found = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(line);
        if (found) {
          clearTimeout(timer);
          resolve(found[1]!);
        }
      });
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('request', (r) => void (!r.url().startsWith(new URL(url).origin) && offsite.push(r.url())));
    await page.goto(url);
    await page.waitForSelector('body[data-ready="1"]');
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    review?.kill('SIGINT');
  });

  const progress = () => page.locator('#progress').innerText();
  const press = async (key: string) => {
    const saved = page.waitForResponse((r) => r.url().includes('/labels') && r.request().method() === 'POST');
    await page.keyboard.press(key);
    expect((await saved).status()).toBe(200);
  };

  it('shows every answer with its question and checks, nothing from off the machine, no errors', async () => {
    expect(await page.locator('#list li').count()).toBe(10);
    expect(await progress()).toContain('0 / 10 reviewed');
    expect(await page.locator('#checks tbody tr').count()).toBeGreaterThan(0);
    expect(offsite).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("keeps a hostile answer's markup as text: no script runs, no element is made", async () => {
    const index = await page.locator('#list li').evaluateAll((lis) => lis.findIndex((li) => li.textContent!.includes('two-factor · gpt-4o-mini')));
    await page.locator('#list li').nth(index).click();
    expect(await page.locator('#text').innerText()).toBe(HOSTILE);
    expect(await page.locator('#text img, #text script, #text b').count()).toBe(0);
    expect(await page.evaluate("typeof window.__pwned")).toBe("undefined");
    await page.locator('#list li').first().click();
  });

  it('labels with the keyboard (y, n, j, u) and keeps the labels across a reload', async () => {
    // First answer right, second wrong (the grader passed it: a disagreement), skip one, third right then undone, fourth wrong.
    await press('y');
    await press('n');
    await page.keyboard.press('j');
    await press('y');
    await press('u');
    await press('n');
    expect(await progress()).toContain('3 / 10 reviewed');
    await page.reload();
    await page.waitForSelector('body[data-ready="1"]');
    expect(await progress()).toContain('3 / 10 reviewed');
    expect(await page.locator('#list li .mark', { hasText: '✗' }).count()).toBe(2);
  });

  it('filters to the answers where grader and person disagree, and to those not yet reviewed', async () => {
    await page.locator('#f-disagree').check();
    const disagreeing = await page.locator('#list li').count();
    expect(disagreeing).toBeGreaterThanOrEqual(1);
    expect(await progress()).toContain(`${disagreeing} disagree`);
    await page.locator('#f-disagree').uncheck();
    await page.locator('#f-todo').check();
    expect(await page.locator('#list li').count()).toBe(7);
    if (screenshot) {
      await page.locator('#f-todo').uncheck();
      await page.locator('#list li').nth(1).click();
      await page.screenshot({ path: join(ROOT, 'docs', 'review.png') });
    }
  });

  it('changes nothing for a request with another Host header or without the token', async () => {
    const before = readFileSync(join(runDir, 'labels.csv'), 'utf8');
    const { port, search } = new URL(url);
    const body = JSON.stringify({ item_id: 'case:pickup-window|model:gpt-4o-mini|r1', human: 'fail', note: 'forged' });
    const json = { 'content-type': 'application/json' };
    expect(await raw(Number(port), `/labels${search}`, { ...json, host: `evil.example:${port}` }, body)).toBe(421);
    expect(await raw(Number(port), '/labels', { ...json, host: `127.0.0.1:${port}` }, body)).toBe(403);
    expect(await raw(Number(port), '/labels?token=wrong', { ...json, host: `127.0.0.1:${port}` }, body)).toBe(403);
    expect(await raw(Number(port), `/labels${search}`, { ...json, host: `127.0.0.1:${port}`, origin: 'http://evil.example' }, body)).toBe(403);
    expect(await raw(Number(port), `/answers.json`, { host: `127.0.0.1:${port}` })).toBe(403);
    expect(await raw(Number(port), `/../run.json${search}`, { host: `127.0.0.1:${port}` })).toBe(404);
    expect(readFileSync(join(runDir, 'labels.csv'), 'utf8')).toBe(before);
  });

  it('grader-check RUN_DIR and report RUN_DIR read the labels: agreement per check type, the person\'s verdict first', async () => {
    const checked = await runCli(['grader-check', runDir, '--json']);
    expect(checked.code, checked.stderr).toBe(0);
    const agreement = JSON.parse(checked.stdout) as { labelled_answers: number; groups: Record<string, { n: number; kappa: number | null }> };
    expect(agreement.labelled_answers).toBe(3);
    expect(agreement.groups.answer?.n).toBe(3);
    const text = await runCli(step('grader-check'));
    expect(text.stdout).toContain("3 labelled answers");
    expect(text.stdout).toMatch(/answer: 3 labels, accuracy/);
    const report = await runCli(step('report'));
    expect([0, 1]).toContain(report.code);
    const summary = JSON.parse(readFileSync(join(runDir, 'summary.json'), 'utf8')) as { agreement?: { labelled_answers: number }; totals: { failed: number } };
    expect(summary.agreement?.labelled_answers).toBe(3);
    expect(summary.totals.failed).toBeGreaterThanOrEqual(2);
    expect(readFileSync(join(runDir, 'report.html'), 'utf8')).toContain('id="people"');
  });
});
