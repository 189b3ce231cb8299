// Renders a run's report.html in Chromium (playwright-core) at a 1280 px page and saves its top
// 1500 px, the README's picture (docs/report.png, after `npm start`):
//   node dist/cli/main.js run suites/demo.yaml --out /tmp/demo && node scripts/screenshot-report.mjs /tmp/demo docs/report.png
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const [runDir, out = 'docs/report.png'] = process.argv.slice(2);
if (!runDir) {
  console.error('usage: node scripts/screenshot-report.mjs RUN_DIR [OUT.png]');
  process.exit(2);
}
const profile = await mkdtemp(join(tmpdir(), 'kbbench-shot-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  viewport: { width: 1280, height: 1500 },
  colorScheme: 'light',
  reducedMotion: 'reduce',
});
try {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(pathToFileURL(resolve(runDir, 'report.html')).href);
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await context.close();
  await rm(profile, { recursive: true, force: true });
}
