// Renders a run's report.html in Chromium (playwright-core) and saves its Load section as a PNG,
// the README's picture: node scripts/screenshot-load.mjs RUN_DIR docs/load-section.png
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const [runDir, out = 'docs/load-section.png'] = process.argv.slice(2);
if (!runDir) {
  console.error('usage: node scripts/screenshot-load.mjs RUN_DIR [OUT.png]');
  process.exit(2);
}
const profile = await mkdtemp(join(tmpdir(), 'kbbench-shot-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  viewport: { width: 1400, height: 900 },
  reducedMotion: 'reduce',
});
try {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(pathToFileURL(resolve(runDir, 'report.html')).href);
  // The table of contents sticks to the top while scrolling; in a picture of one section it would cover the titles.
  await page.addStyleTag({ content: 'nav.toc { position: static !important; }' });
  const load = page.locator('section#load');
  await load.scrollIntoViewIfNeeded();
  await load.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await context.close();
  await rm(profile, { recursive: true, force: true });
}
