// Opens a generated report.html in a real Chromium: no errors, no network, models, charts, matrix panel, sorting.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReports } from '../src/report/build-reports.js';
import { NASTY_ANSWER, SYNTHETIC_MODELS, writeSyntheticRun } from '../src/report/test-support/synthetic-run.js';
import { writeSyntheticSweep, writeSyntheticTimeline } from '../src/report/test-support/synthetic-timeline.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(`report-browser.test.ts skipped: ${CHROMIUM} does not exist (install Debian's chromium package to run it).`);
}
/** Set KBBENCH_KEEP_REPORT=1 to keep the run directory (report and screenshots) for a look. */
const keep = process.env.KBBENCH_KEEP_REPORT === '1';

describe.skipIf(!hasChromium)('report.html in Chromium', () => {
  let dir = '';
  let context: BrowserContext;
  let page: Page;
  const consoleErrors: string[] = [];
  const failedRequests: string[] = [];
  const networkRequests: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kbbench-report-'));
    const runDir = join(dir, 'run');
    const written = await writeSyntheticRun(runDir);
    // An open-loop ramp over time, so the Load section has stages, a knee and its charts.
    const run = { ...written.run, load: writeSyntheticTimeline(runDir) };
    await buildReports({
      runDir,
      run,
      // Judged on the synthetic run: one passes, the model-scoped pass rate (5/6) fails.
      thresholds: { ttfc_ms: ['p(95)<2000'], 'pass_rate{model:gpt-4o-mini}': ['rate>=0.95'] },
    });
    context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 1360, height: 900 },
      reducedMotion: 'reduce',
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    page.on('requestfailed', (request) => failedRequests.push(request.url()));
    page.on('request', (request) => {
      if (!request.url().startsWith('file:')) networkRequests.push(request.url());
    });
    await page.goto(pathToFileURL(join(runDir, 'report.html')).href);
  });

  afterAll(async () => {
    await context?.close();
    if (keep) console.log(`report kept in ${join(dir, 'run')}`);
    else if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('loads with no console errors and no network', async () => {
    await page.waitForLoadState('load');
    expect(consoleErrors).toEqual([]);
    expect(failedRequests).toEqual([]);
    expect(networkRequests).toEqual([]);
  });

  it('shows a row per model and the charts', async () => {
    for (const model of SYNTHETIC_MODELS) {
      await expect(page.locator(`#model-table tbody tr[data-model="${model}"]`).count()).resolves.toBe(1);
    }
    expect(await page.locator('svg.chart').count()).toBeGreaterThanOrEqual(6);
    // Charts: TTFC and latency by percentile, the latency distribution, credits by model and by
    // case. Latency over time is drawn once, in the Load section (no mean/max "over the run").
    expect(await page.locator('section#charts svg.chart').count()).toBe(5);
    const overTime = page.locator('figure').filter({ has: page.locator('figcaption', { hasText: /^Latency.* over (the run|time)$/ }) });
    expect(await overTime.count()).toBe(1);
    expect(await page.locator('section#load figcaption', { hasText: 'Latency percentiles over time' }).count()).toBe(1);
    const curves = page.locator('figure', { hasText: 'Latency by percentile' }).locator('path.line');
    expect(await curves.count()).toBe(SYNTHETIC_MODELS.length);
    expect(await page.getByText('✗ FAIL').count()).toBeGreaterThan(0);
  });

  it('shows the Load section: rate, throughput and latency charts, the stage table with the knee marked', async () => {
    const load = page.locator('section#load');
    await load.scrollIntoViewIfNeeded();
    // Rate, throughput, latency percentiles, and TTFC / inter-chunk latency over time; goodput against offered load.
    expect(await load.locator('svg.chart').count()).toBe(5);
    const rate = load.locator('figure', { hasText: 'Target and achieved rate' });
    expect(await rate.locator('path.line').count()).toBeGreaterThanOrEqual(4);
    expect(await rate.locator('line.knee-mark').count()).toBe(1);
    const stacked = load.locator('figure', { hasText: 'Throughput and errors by kind' });
    expect(await stacked.locator('path.area').count()).toBe(2);
    await expect(stacked.locator('.legend').textContent()).resolves.toContain('E_RATE_LIMITED');
    // Corrected and uncorrected percentiles on one chart.
    const latency = load.locator('figure', { hasText: 'Latency percentiles over time' });
    expect(await latency.locator('path.line').count()).toBe(6);
    const rows = load.locator('#stage-table tbody tr');
    expect(await rows.count()).toBe(2);
    expect(await load.locator('#stage-table tr.knee').count()).toBe(1);
    await expect(load.locator('#knee').textContent()).resolves.toMatch(/Knee at 1\d(\.\d+)? starts\/s: p95 latency doubled/);
    const box = await load.locator('svg.chart').first().boundingBox();
    expect(box!.width).toBeGreaterThan(200);
    await page.screenshot({ path: join(dir, 'run', 'report-load.png'), fullPage: false });
  });

  it('draws goodput beside all answers against the offered load of each stage', async () => {
    const card = page.locator('section#load #goodput');
    await card.scrollIntoViewIfNeeded();
    const chart = card.locator('figure#goodput-chart');
    // One line each for answers/s and goodput/s, a marker per stage on each.
    expect(await chart.locator('path.line').count()).toBe(2);
    await expect(chart.locator('.legend').textContent()).resolves.toMatch(/answers\/s.*goodput\/s/);
    // The synthetic run's answers all started in its first stage: one load with goodput has no knee to mark.
    expect(await chart.locator('line.knee-mark').count()).toBe(0);
    await expect(card.locator('p').first().textContent()).resolves.toMatch(/^goodput [\d.]+\/s of [\d.]+ answers\/s \(answers that passed their checks/);
    const box = await chart.locator('svg.chart').boundingBox();
    expect(box!.width).toBeGreaterThan(200);
    expect(box!.height).toBeGreaterThan(100);
    // The stage table carries both figures.
    await expect(page.locator('#stage-table thead').textContent()).resolves.toMatch(/Answers\/s.*Goodput\/s/);
  });

  it('draws a sweep against achieved rate (latency percentiles, error and pass rate) with slo_max_rate marked', async () => {
    const sweepDir = join(dir, 'sweep');
    const written = await writeSyntheticRun(sweepDir);
    await buildReports({ runDir: sweepDir, run: { ...written.run, load: writeSyntheticSweep(sweepDir) } });
    const sweepPage = await context.newPage();
    try {
      const errors: string[] = [];
      sweepPage.on('pageerror', (error) => errors.push(error.message));
      await sweepPage.goto(pathToFileURL(join(sweepDir, 'report.html')).href);
      const load = sweepPage.locator('section#load');
      await load.scrollIntoViewIfNeeded();
      const latency = load.locator('figure#sweep-latency');
      expect(await latency.locator('path.line').count()).toBe(5);
      // slo_max_rate and the two probes (one at a time, saturation), each marked and titled.
      expect(await latency.locator('line.knee-mark').count()).toBe(3);
      await expect(latency.locator('line.knee-mark title').allTextContents()).resolves.toEqual(expect.arrayContaining([expect.stringMatching(/^probe 1/), expect.stringMatching(/^probe 2/)]));
      const rates = load.locator('figure#sweep-rates');
      await expect(rates.locator('.legend').textContent()).resolves.toMatch(/error rate.*pass rate/);
      // Four rates and the two probes as rows of their own.
      expect(await load.locator('#sweep-table tbody tr').count()).toBe(6);
      expect(await load.locator('#sweep-table tbody tr.probe').count()).toBe(2);
      expect(await load.locator('#sweep-table tr.slo-max').count()).toBe(1);
      await expect(load.locator('#slo-max').textContent()).resolves.toMatch(/Highest rate meeting every SLO: \d/);
      const box = await latency.locator('svg.chart').boundingBox();
      expect(box!.width).toBeGreaterThan(200);
      expect(errors).toEqual([]);
      await load.locator('#sweep').scrollIntoViewIfNeeded();
      await sweepPage.screenshot({ path: join(sweepDir, 'report-sweep.png'), fullPage: false });
    } finally {
      await sweepPage.close();
    }
  });

  it('opens a cell with every model’s answer side by side, answers escaped', async () => {
    const cell = page.locator('button.cell[aria-label^="escaping, gpt-4o-mini"]');
    await cell.click();
    const panel = page.locator('section.detail:not([hidden])');
    await expect(panel.count()).resolves.toBe(1);
    expect(await cell.getAttribute('aria-expanded')).toBe('true');
    expect(await panel.locator('.prompt').innerText()).toContain('<b>markup</b>');
    const columns = panel.locator('.answer-col');
    expect(await columns.count()).toBe(SYNTHETIC_MODELS.length);
    for (const model of SYNTHETIC_MODELS) {
      const text = await panel.locator(`.answer-col[data-model="${model}"] pre`).first().innerText();
      expect(text).toBe(NASTY_ANSWER);
    }
    // The answer's <script> stayed text: the page has only its own script, and no <b> from the prompt.
    expect(await page.locator('script').count()).toBe(1);
    expect(await panel.locator('.prompt b').count()).toBe(0);
    await page.screenshot({ path: join(dir, 'run', 'report-panel.png'), fullPage: false });
  });

  it('shows a thread turn by turn, and Escape closes the panel', async () => {
    const cell = page.locator('button.cell[aria-label^="onboarding turn 3, mistral-large"]');
    await cell.focus();
    await page.keyboard.press('Enter');
    const panel = page.locator('section.detail:not([hidden])');
    expect(await panel.locator('.turn-block').count()).toBe(3);
    expect(await panel.innerText()).toContain('E_TIMEOUT');
    await page.keyboard.press('Escape');
    expect(await page.locator('section.detail:not([hidden])').count()).toBe(0);
    expect(await page.locator(':focus').getAttribute('aria-label')).toMatch(/^onboarding turn 3, mistral-large/);
  });

  it('sorts the model table by a column', async () => {
    const header = page.locator('#model-table thead th', { has: page.locator('button[aria-label="TTFC p50 (ms)"]') });
    // Column 4 (after the model's <th>, requests, errors, pass rate) is the 4th <td>.
    const values = async (): Promise<number[]> => {
      const rows = page.locator('#model-table tbody tr');
      const count = await rows.count();
      return Promise.all(Array.from({ length: count }, async (_, i) => Number(await rows.nth(i).locator('td').nth(3).getAttribute('data-sort-value'))));
    };
    await header.locator('button').click();
    expect(await header.getAttribute('aria-sort')).toBe('ascending');
    const ascending = await values();
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    await header.locator('button').click();
    expect(await header.getAttribute('aria-sort')).toBe('descending');
    const descending = await values();
    expect(descending).toEqual([...ascending].reverse());
    expect(await page.locator('#model-table tbody tr').first().getAttribute('data-model')).toBe('mistral-large');
  });

  it('stars only significant differences and draws a forest plot of each pair', async () => {
    // Six questions (a thread of three turns is one cluster) cannot show any difference at 5%.
    expect(await page.locator('#model-table td.best').count()).toBe(0);
    const verdicts = await page.locator('#model-table tfoot td.pair-verdict').allTextContents();
    expect(verdicts).toHaveLength(4);
    expect(new Set(verdicts)).toEqual(new Set(['no detectable difference']));
    expect(await page.locator('#model-table tbody tr').first().locator('td .ci').textContent()).toMatch(/^\d+–\d+%$/);
    const panel = page.locator('#forest-plot figure[data-metric="pass_rate"]');
    await panel.scrollIntoViewIfNeeded();
    expect(await panel.isVisible()).toBe(true);
    const rows = panel.locator('g.forest-row');
    expect(await rows.count()).toBe(3);
    const zero = await panel.locator('line.zero').boundingBox();
    for (let i = 0; i < 3; i++) {
      const line = (await rows.nth(i).locator('line.ci').boundingBox())!;
      const dot = (await rows.nth(i).locator('circle').boundingBox())!;
      // The dot sits on its interval, and every interval of these six questions crosses zero.
      expect(dot.x + dot.width / 2).toBeGreaterThanOrEqual(line.x - 1);
      expect(dot.x + dot.width / 2).toBeLessThanOrEqual(line.x + line.width + 1);
      expect(line.x).toBeLessThanOrEqual(zero!.x + 1);
      expect(line.x + line.width).toBeGreaterThanOrEqual(zero!.x - 1);
      expect(await rows.nth(i).getAttribute('aria-label')).toMatch(/ − .*: .*no detectable difference$/);
    }
    expect(await page.locator('#forest-plot figure').count()).toBe(4);
  });

  it('writes a junit.xml a browser parses as XML', async () => {
    const xml = await readFile(join(dir, 'run', 'junit.xml'), 'utf8');
    // A string expression: this project's TypeScript has no DOM types.
    const errors = await page.evaluate(
      `new DOMParser().parseFromString(${JSON.stringify(xml)}, 'application/xml').getElementsByTagName('parsererror').length`,
    );
    expect(errors).toBe(0);
  });

  it('shows each case\'s prompt (shortened, whole on hover), filters to failures and expands every panel', async () => {
    const prompt = page.locator('#matrix tbody th .row-prompt').first();
    await expect(prompt.isVisible()).resolves.toBe(true);
    const whole = await prompt.getAttribute('title');
    const shown = (await prompt.textContent()) ?? '';
    expect(whole && whole.startsWith(shown.replace(/…$/, ''))).toBe(true);
    const bodies = page.locator('#matrix tbody[data-failing]');
    const total = await bodies.count();
    await page.check('#failures-only');
    const visible = await page.locator('#matrix tbody[data-failing]:not([hidden])').count();
    expect(visible).toBeGreaterThan(0);
    expect(visible).toBeLessThan(total);
    expect(await page.locator('#matrix tbody[data-failing="false"]:not([hidden])').count()).toBe(0);
    await page.uncheck('#failures-only');
    expect(await page.locator('#matrix tbody[data-failing]:not([hidden])').count()).toBe(total);
    await page.click('#expand-all');
    const panels = page.locator('section.detail');
    expect(await panels.count()).toBeGreaterThan(1);
    expect(await page.locator('section.detail[hidden]').count()).toBe(0);
    await page.click('#collapse-all');
    expect(await page.locator('section.detail:not([hidden])').count()).toBe(0);
  });

  it('writes every credit figure with one format, the balance not cut to an integer', async () => {
    const kpi = async (label: string) => page.locator('.kpi', { has: page.locator('.label', { hasText: label }) }).locator('.value').innerText();
    const spent = await kpi('Credits spent');
    const remaining = await kpi('Credits remaining');
    // 5 decimals, the service's unit, everywhere: `0.36103`, `990.75350`, never `0.361` beside `0.2509`.
    expect(spent).toMatch(/^\d[\d,]*\.\d{5}$/);
    expect(remaining).toMatch(/^\d[\d,]*\.\d{5}$/);
    expect(remaining.endsWith('.00000')).toBe(false);
    const perRequest = await page.locator('#models td').allInnerTexts();
    const credits = perRequest.filter((text) => /^0\.\d+$/.test(text.trim()));
    expect(credits.length).toBeGreaterThan(0);
    for (const text of credits) expect(text.trim()).toMatch(/^0\.\d{5}$/);
  });

  it('fits a 1280 px page: nothing scrolls sideways, the model table fits its card, the paired-test row under its columns', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    try {
      // String expressions: this project's TypeScript has no DOM types.
      const page1280 = (await page.evaluate(`(() => {
        const s = document.scrollingElement;
        const box = document.querySelector('#model-table').parentElement;
        return { scrollWidth: s.scrollWidth, clientWidth: s.clientWidth, boxScroll: box.scrollWidth, boxClient: box.clientWidth };
      })()`)) as { scrollWidth: number; clientWidth: number; boxScroll: number; boxClient: number };
      expect(page1280.scrollWidth).toBeLessThanOrEqual(page1280.clientWidth);
      // The table's own scroll box is the fallback for narrow windows; at 1280 px no column is hidden behind it.
      expect(page1280.boxScroll).toBeLessThanOrEqual(page1280.boxClient);
      type Cell = { left: number; right: number; top: number; height: number; border: string; padding: string };
      const cells = (await page.evaluate(`(() => {
        const of = (c) => { const r = c.getBoundingClientRect(); const st = getComputedStyle(c);
          return { left: r.left, right: r.right, top: r.top, height: r.height, border: st.borderLeftWidth + ' ' + st.borderTopWidth, padding: st.paddingLeft + ' ' + st.paddingTop }; };
        return { foot: [...document.querySelectorAll('#model-table tfoot tr > *')].map(of), body: [...document.querySelectorAll('#model-table tbody tr:first-child > *')].map(of) };
      })()`)) as { foot: Cell[]; body: Cell[] };
      expect(cells.foot).toHaveLength(cells.body.length);
      cells.foot.forEach((cell, i) => {
        const column = cells.body[i]!;
        // Each paired-test cell spans exactly its column, in one row of equal heights, drawn as the cells above it (no box of its own).
        expect(Math.abs(cell.left - column.left)).toBeLessThanOrEqual(0.5);
        expect(Math.abs(cell.right - column.right)).toBeLessThanOrEqual(0.5);
        expect(Math.abs(cell.top - cells.foot[0]!.top)).toBeLessThanOrEqual(0.5);
        expect(Math.abs(cell.height - cells.foot[0]!.height)).toBeLessThanOrEqual(0.5);
        expect(cell.border).toBe(column.border);
        expect(cell.padding).toBe(column.padding);
      });
    } finally {
      await page.setViewportSize({ width: 1360, height: 900 });
    }
  });

  it('takes a screenshot in light and dark', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.screenshot({ path: join(dir, 'run', 'report.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: join(dir, 'run', 'report-dark.png'), fullPage: true });
    expect(existsSync(join(dir, 'run', 'report.png'))).toBe(true);
  });
});
