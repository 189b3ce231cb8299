// The two test tiers as the README's test section states them: `npm test` (build, unit + e2e), `npm run test:slow` (the slow project, its own JSON report) and `npm run check`; CI
// (.ci/run) runs all three and counts both reports. A script renamed or a tier dropped from CI
// fails here, not in a CI run that quietly stopped running a third of the tests.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The `npm …` lines of the README's sh blocks, without their comments. */
const npmLines = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
  .flatMap((m) => (m[1] ?? '').split('\n'))
  .map((line) => line.replace(/\s+#.*$/, '').trim())
  .filter((line) => line.startsWith('npm '));

describe('the test tiers', () => {
  it('npm test builds (the type-check of src/) and runs the unit and e2e projects, not the slow one', () => {
    expect(scripts.test).toBe('npm run build && vitest run --project unit --project own-process --project e2e');
  });

  it('npm run test:slow runs the slow project into its own JSON report; npm run check the static checks', () => {
    expect(scripts['test:slow']).toMatch(/vitest run --project slow --outputFile\.json=reports\/vitest-slow-results\.json$/);
    expect(scripts.check).toBe('node scripts/checks.mjs');
    expect(readFileSync(join(ROOT, 'scripts/checks.mjs'), 'utf8')).toContain("['typecheck', 'lint', 'cycles']");
  });

  it('CI runs all three and counts both reports', () => {
    for (const command of ['npm run check', 'npm test', 'npm run test:slow']) expect(ci).toMatch(new RegExp(`^step ${command}$`, 'm'));
    expect(ci).toContain('reports/vitest-results.json');
    expect(ci).toContain('reports/vitest-slow-results.json');
  });

  it("every npm script the README's sh blocks name exists", () => {
    expect(npmLines.some((line) => line.startsWith('npm test'))).toBe(true);
    for (const line of npmLines) {
      for (const [, name] of line.matchAll(/npm (?:run )?([\w:-]+)/g)) {
        if (name === 'install' || name === 'ci') continue;
        expect(scripts, `${line}: npm ${name}`).toHaveProperty([name!]);
      }
    }
    expect(npmLines).toEqual(expect.arrayContaining([expect.stringMatching(/^npm run test:slow/), expect.stringMatching(/^npm run check/)]));
  });
});
