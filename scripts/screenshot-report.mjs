// Renders a run's report.html in Chromium (playwright-core) at a 1280 px page and saves its top
// 1500 px, the README's picture (docs/report.png, after `npm start`):
//   node dist/cli/main.js run suites/demo.yaml --out /tmp/demo && node scripts/screenshot-report.mjs /tmp/demo docs/report.png
import { runDirArg, withReportPage } from './lib/report-page.mjs';

const { runDir, out } = runDirArg('screenshot-report.mjs', 'docs/report.png');
await withReportPage(runDir, { viewport: { width: 1280, height: 1500 }, colorScheme: 'light' }, async (page) => {
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
});
