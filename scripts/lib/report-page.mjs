// Opens a run's report.html in Debian's Chromium (playwright-core) with a throwaway profile, for the
// screenshot scripts: `withReportPage(runDir, options, (page) => …)` closes and removes it after.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

/** The run directory from argv, or the script's usage and exit 2. */
export function runDirArg(script, defaultOut) {
  const [runDir, out = defaultOut] = process.argv.slice(2);
  if (!runDir) {
    console.error(`usage: node scripts/${script} RUN_DIR [OUT.png]`);
    process.exit(2);
  }
  return { runDir, out };
}

export async function withReportPage(runDir, { viewport, colorScheme }, use) {
  const profile = await mkdtemp(join(tmpdir(), 'kbbench-shot-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport,
    ...(colorScheme ? { colorScheme } : {}),
    reducedMotion: 'reduce',
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(pathToFileURL(resolve(runDir, 'report.html')).href);
    await use(page);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}
