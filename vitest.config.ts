import { defineConfig } from 'vitest/config';

/** The memory checks (200,000 requests) and the browser tests: run by `npm test`, or alone with `npm run test:slow`. */
const SLOW = ['test/slow/**/*.test.ts', 'test/report-browser.test.ts', 'test/compare-browser.e2e.test.ts'];
/** Tests that run dist/ (the bin, the CLI in-process, the library entry) but are not named *.e2e.test.ts. */
const RUNS_DIST = ['test/library.test.ts'];
/**
 * Unit tests that set a process-wide V8 flag (the young generation's growth factor): in the unit
 * project's worker threads another file's isolate reset it mid-test (a flaky failure), so they run
 * in a forked process of their own, with the e2e files.
 */
const OWN_PROCESS = ['src/session/young-generation.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Four files at once on these 2-core machines (vitest's default is cores − 1 = one): most e2e
    // time is spent waiting on child processes (the CLI and the reference service), not computing;
    // with two, a clean run summed 568 s of files in 385 s of wall time at a load average of ~2.
    maxWorkers: 4,
    // The JSON report lets .ci/run print a plain "N passed, N failed" closing line.
    reporters: ['default', ['json', { outputFile: 'reports/vitest-results.json' }]],
    // `npm test` runs all three; `npm run test:unit` (or test:e2e, test:slow) one of them.
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['test/**/*.e2e.test.ts', ...SLOW, ...RUNS_DIST, ...OWN_PROCESS],
          // Worker threads, and one module graph per worker for all its files: no unit test mocks a
          // module, stubs globals or env, changes directory, exits or takes a signal (those live in
          // e2e/, which keeps a forked process per file). Each file in its own fork re-imported zod,
          // yaml, undici and src/ for each of 171 files: 110 s of CPU for the project, 49 s this way.
          pool: 'threads',
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/**/*.e2e.test.ts', ...RUNS_DIST, ...OWN_PROCESS],
          exclude: SLOW,
          // dist/ older than src/ fails here, before any test runs against a stale build.
          globalSetup: ['test/global-setup.ts'],
          // The CLI run in-process is dist/ loaded by Node itself, as the bin loads it (not re-transformed).
          server: { deps: { external: [/\/dist\//] } },
        },
      },
      { extends: true, test: { name: 'slow', include: SLOW, globalSetup: ['test/global-setup.ts'] } },
    ],
  },
});
