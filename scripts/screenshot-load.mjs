// Renders a run's report.html in Chromium (playwright-core) and saves its Load section as a PNG,
// the README's picture: node scripts/screenshot-load.mjs RUN_DIR docs/load-section.png
import { runDirArg, withReportPage } from './lib/report-page.mjs';

const { runDir, out } = runDirArg('screenshot-load.mjs', 'docs/load-section.png');
await withReportPage(runDir, { viewport: { width: 1400, height: 900 } }, async (page) => {
  // The table of contents sticks to the top while scrolling; in a picture of one section it would cover the titles.
  await page.addStyleTag({ content: 'nav.toc { position: static !important; }' });
  const load = page.locator('section#load');
  await load.scrollIntoViewIfNeeded();
  await load.screenshot({ path: out });
  console.log(`wrote ${out}`);
});
