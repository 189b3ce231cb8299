// Six runs of the demo suite, a knowledge document changed before the fourth: `kbbench history` finds
// the pass-rate change at the fourth run and none on the unchanged metrics; the page in real Chromium.
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryJson } from '../src/history/index.js';
import { ROOT, runCliInProcess as runCli, tempDir } from './helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`history browser checks skipped: ${CHROMIUM} does not exist (install Debian's chromium package).`);

/** A label as hostile as a CI branch name can be: markup, an event handler, a bidi override. */
const HOSTILE_LABEL = `<img src=x onerror="document.title='pwned'"><script>document.title='pwned'</script>\u202Eevil`;
const MODELS = ['claude-sonnet-4-6', 'gpt-4o', 'gpt-4o-mini'];

let work = '';
let history: HistoryJson;
let stdout = '';

beforeAll(async () => {
  work = tempDir('kbbench-history-');
  cpSync(join(ROOT, 'suites'), join(work, 'suites'), { recursive: true });
  const doc = join(work, 'suites', 'demo', 'docs', 'plans-and-pricing.md');
  const workspace = join(work, 'suites', 'demo', 'workspace.yaml');
  const workspaceText = readFileSync(workspace, 'utf8');
  writeFileSync(workspace, `version: kb-1\n${workspaceText}`);
  for (let i = 1; i <= 6; i++) {
    if (i === 4) {
      writeFileSync(workspace, `version: kb-2\n${workspaceText}`);
      // The knowledge base changes: the Team price and the trial's length, which three questions check.
      const text = readFileSync(doc, 'utf8');
      const changed = text.replace('€29 per agent', '€31 per agent').replace('14-day free trial', '21-day free trial');
      expect(changed).not.toBe(text);
      writeFileSync(doc, changed);
    }
    const label = i === 2 ? HOSTILE_LABEL : `run ${i}`;
    const r = await runCli(['run', 'suites/demo.yaml', '--latency-scale', '0', '--quiet', '--label', label, '--out', join('runs', `nested-${i % 2}`, `r${i}`)], {
      cwd: work, env: { GITHUB_SHA: `${i}`.repeat(40) },
    });
    expect(r.code, r.stderr).toBe(i < 4 ? 0 : 1);
  }
  const r = await runCli(['history', 'runs', '--suite', 'demo', '--out', 'site'], { cwd: work });
  expect(r.code, r.stderr).toBe(0);
  stdout = r.stdout;
  history = JSON.parse(readFileSync(join(work, 'site', 'history.json'), 'utf8')) as HistoryJson;
}, 240_000);

describe('kbbench history over six runs of the demo suite', () => {
  it('reads every run, nested folders too, in time order with labels and commits', () => {
    expect(history.runs.map((r) => r.label)).toEqual(['run 1', HOSTILE_LABEL, 'run 3', 'run 4', 'run 5', 'run 6']);
    expect(history.runs.map((r) => r.commit)).toEqual([1, 2, 3, 4, 5, 6].map((i) => `${i}`.repeat(40)));
    expect(history.runs.every((r) => r.report?.endsWith('/report.html'))).toBe(true);
  });

  it("records the knowledge base's version and a hash of its documents, which changes with a document", () => {
    expect(history.runs.map((r) => r.knowledge_base?.version)).toEqual(['kb-1', 'kb-1', 'kb-1', 'kb-2', 'kb-2', 'kb-2']);
    const hashes = history.runs.map((r) => r.knowledge_base?.sha256);
    expect(hashes[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(hashes.slice(0, 3)).size).toBe(1);
    expect(new Set(hashes.slice(3)).size).toBe(1);
    expect(hashes[3]).not.toBe(hashes[0]);
  });

  it('finds the pass-rate change point at the fourth run for every model, before/after named', () => {
    const fourth = history.runs[3]!;
    const passRate = history.change_points.filter((c) => c.metric === 'pass_rate');
    expect(passRate.map((c) => c.model).sort()).toEqual(MODELS);
    for (const c of passRate) {
      expect(c.run_id).toBe(fourth.run_id);
      expect(c.label).toBe('run 4');
      expect(c.previous_label).toBe('run 3');
      expect(c.commit).toBe('4'.repeat(40));
      // Three of the fifteen questions broke: 1 → 0.8. (A loaded machine can fail one more answer
      // by itself — a regex check's time limit — so the means are bounded, not exact.)
      expect(c.before).toBeGreaterThanOrEqual(0.9);
      expect(c.after).toBeLessThanOrEqual(0.81);
      expect(c.p_value).toBeLessThanOrEqual(history.method.significance);
    }
    expect(stdout).toContain('pass_rate');
  });

  it('reports no change point on the unchanged metrics', () => {
    expect(history.change_points.filter((c) => c.metric !== 'pass_rate')).toEqual([]);
  });

  it('writes the contract: series per model and metric, points with ci95 on the pass rate', () => {
    for (const model of MODELS) {
      for (const metric of ['pass_rate', 'ttfc_ms_p95', 'latency_ms_p95', 'credits_per_answer']) {
        const s = history.series.find((x) => x.suite === 'demo' && x.model === model && x.metric === metric);
        expect(s, `${model} ${metric}`).toBeDefined();
        expect(s!.points).toHaveLength(6);
        for (const p of s!.points) {
          expect(typeof p.run_id).toBe('string');
          expect(typeof p.started_at).toBe('string');
          expect(typeof p.value).toBe('number');
          if (metric === 'pass_rate') expect(p.ci95![0]).toBeLessThanOrEqual(p.value!);
        }
      }
    }
  });

  it('names the questions that flipped at the fourth run as regressed, not flaky', () => {
    const fourth = history.runs[3]!.run_id;
    for (const model of MODELS) {
      for (const item of ['case:free-trial', 'case:team-price', 'thread:plans-followup#2']) {
        const flip = history.flips.find((f) => f.model === model && f.item === item);
        expect(flip, `${model} ${item}: ${JSON.stringify(history.flips)}`).toBeDefined();
        expect(flip!.kind).toBe('regressed');
        expect(flip!.runs).toEqual([{ run_id: fourth, passed: false }]);
      }
    }
    // Anything else that flipped did so by accident of a loaded machine, never at the fourth run.
    for (const f of history.flips.filter((x) => !['case:free-trial', 'case:team-price', 'thread:plans-followup#2'].includes(x.item))) {
      expect(f.runs.some((x) => x.run_id === fourth && !x.passed), JSON.stringify(f)).toBe(false);
    }
  });
});

describe.skipIf(!hasChromium)('history.html in Chromium', () => {
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  const network: string[] = [];
  const dialogs: string[] = [];

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
    page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on('request', (r) => {
      if (!r.url().startsWith('file:')) network.push(r.url());
    });
    await page.goto(pathToFileURL(join(work, 'site', 'history.html')).href);
    await page.waitForLoadState('load');
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('loads with no console errors, no network, and the hostile label inert', async () => {
    expect(errors).toEqual([]);
    expect(network).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(await page.title()).not.toContain('pwned');
    expect(await page.locator('img').count()).toBe(0);
    // The label shows as text, isolated so its bidi override cannot turn the row around.
    expect(await page.locator('#runs bdi', { hasText: '<img src=x' }).count()).toBe(1);
  });

  it('draws every chart: each figure has an SVG with a line, or a point', async () => {
    const figures = page.locator('#charts figure');
    const count = await figures.count();
    expect(count).toBe(history.series.length);
    for (let i = 0; i < count; i++) {
      const svg = figures.nth(i).locator('svg.chart');
      expect(await svg.count()).toBe(1);
      const box = await svg.boundingBox();
      expect(box!.width).toBeGreaterThan(100);
      expect(await figures.nth(i).locator('path.line, circle').count()).toBeGreaterThan(0);
    }
    // The pass-rate charts draw their change point.
    expect(await page.locator('#charts figure[data-metric="pass_rate"] line.change').count()).toBe(MODELS.length);
  });

  it('links each point to its run report.html, which exists', async () => {
    const links = page.locator('#charts figure[data-metric="pass_rate"][data-model="gpt-4o"] a.point');
    expect(await links.count()).toBe(6);
    const href = await links.first().getAttribute('href');
    expect(existsSync(join(work, 'site', decodeURIComponent(href!)))).toBe(true);
  });

  it('filters by model and metric', async () => {
    await page.selectOption('#f-model', 'gpt-4o');
    await page.selectOption('#f-metric', 'pass_rate');
    const visible = page.locator('#charts figure:visible');
    expect(await visible.count()).toBe(1);
    expect(await visible.first().getAttribute('data-model')).toBe('gpt-4o');
    await page.selectOption('#f-model', '*');
    expect(await page.locator('#charts figure:visible').count()).toBe(MODELS.length);
    await page.selectOption('#f-metric', '*');
    expect(await page.locator('#charts figure:visible').count()).toBe(history.series.length);
  });
});
