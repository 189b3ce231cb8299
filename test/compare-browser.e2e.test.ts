// Opens a generated compare.html in a real Chromium: no errors, no network, escaped answers, the diff, filter and expand.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareRuns } from '../src/compare/compare-runs.js';
import { DEFAULT_COMPARE_OPTIONS } from '../src/compare/options.js';
import { NASTY_TEXT, sample, writeRun } from '../src/test-support/fixtures.js';
import { writeComparison } from '../src/compare/write.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);

describe.skipIf(!hasChromium)('compare.html in Chromium', () => {
  let dir = '';
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  const network: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kbbench-compare-html-'));
    const base = writeRun(join(dir, 'base'), [
      sample({ caseId: 'refund-window', text: 'We give a full refund within 30 days.' }),
      sample({ caseId: 'nasty', text: 'plain answer' }),
      sample({ caseId: 'soc2', model: 'gpt-4o-mini', text: 'SOC 2 Type II.' }),
    ]);
    const head = writeRun(join(dir, 'head'), [
      sample({ caseId: 'refund-window', pass: false, text: 'We give a full refund within 45 days.' }),
      sample({ caseId: 'nasty', text: NASTY_TEXT }),
      sample({ caseId: 'soc2', model: 'gpt-4o-mini', text: 'SOC 2 Type II, audited yearly.' }),
    ]);
    const written = await writeComparison(join(dir, 'out'), await compareRuns(base, head, DEFAULT_COMPARE_OPTIONS));
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('request', (r) => void (!r.url().startsWith('file:') && network.push(r.url())));
    await page.goto(pathToFileURL(written.html).href);
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('loads with no errors, no network and only its own script', async () => {
    await page.waitForLoadState('load');
    expect(errors).toEqual([]);
    expect(network).toEqual([]);
    expect(await page.locator('script').count()).toBe(1);
  });

  it('shows a regression open with both answers and the changed word marked', async () => {
    const item = page.locator('#regressions details.item').first();
    expect(await item.getAttribute('open')).not.toBeNull();
    expect(await item.locator('del.diff').innerText()).toContain('30');
    expect(await item.locator('ins.diff').innerText()).toContain('45');
    expect(await item.locator('.answer-col').count()).toBe(2);
  });

  it('keeps an answer with markup as text', async () => {
    const nasty = page.locator('#changed details.item', { hasText: 'nasty' });
    await nasty.locator('summary').click();
    expect(await nasty.locator('.answer-col').nth(1).locator('pre').innerText()).toContain('<script>alert("x")</script>');
  });

  it('filters items and expands them all', async () => {
    await page.fill('#filter', 'soc2');
    expect(await page.locator('details.item:visible').count()).toBe(1);
    await page.click('#expand-all');
    expect(await page.locator('details.item[open]:visible').count()).toBe(1);
    await page.fill('#filter', '');
    expect(await page.locator('details.item:visible').count()).toBe(3);
  });
});
