import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * End-to-end files timed by design: their length is a load schedule run at its real rate (sweeps,
 * stages, arrivals, a replay interrupted and resumed, many machines started at one instant), a
 * signal sent at a moment, or every command of the README and its CI example run as written.
 * Together about 460 s of the 830 s of file time `npm test` had (a fresh-clone CI run, 2026-11-28);
 * shortening them would change what they prove, so they run in the slow tier, which CI runs too.
 */
const TIMED = [
  'test/readme-commands.e2e.test.ts', 'test/readme-tour.e2e.test.ts', 'test/ci-example.e2e.test.ts', 'test/init.e2e.test.ts',
  'test/sweep-dropped.e2e.test.ts', 'test/sweep.e2e.test.ts', 'test/confirm-derived.e2e.test.ts', 'test/traffic-resume.e2e.test.ts',
  'test/workers.e2e.test.ts', 'test/load-arrivals.e2e.test.ts', 'test/load-demo-stages.e2e.test.ts', 'test/load-hung.e2e.test.ts',
  'test/pause-fault.e2e.test.ts', 'test/prometheus-output.e2e.test.ts', 'test/hostile-three.e2e.test.ts', 'test/many-machines.e2e.test.ts',
  // Real latencies by design: compare's no-false-alarm across seeds, a replay's TTFC against the recorded run's, a lock race.
  'test/readme-library.e2e.test.ts', 'test/compare.e2e.test.ts', 'test/serve-replay.e2e.test.ts', 'test/run-lock-race.e2e.test.ts',
];
/**
 * The slow tier, run by `npm run test:slow` (and by `.ci/run` after `npm test`), not by `npm test`:
 * the README tour word for word at the service's real latencies, the tarball packed and installed,
 * the memory checks (200,000 requests), the browser tests and the files timed by design.
 */
const SLOW = ['test/slow/**/*.test.ts', 'test/report-browser.test.ts', 'test/compare-browser.e2e.test.ts', 'test/review-browser.e2e.test.ts', ...TIMED];
/** Tests that run dist/ (the bin, the CLI in-process, the library entry) but are not named *.e2e.test.ts. */
const RUNS_DIST = ['test/library.test.ts'];
/**
 * Unit tests that set a process-wide V8 flag (the young generation's growth factor): in the unit
 * project's worker threads another file's isolate reset it mid-test (a flaky failure), and an e2e
 * worker's process is shared with files that run the CLI in it; so they run in a project of their
 * own (`own-process`, part of `npm test`), a forked process per file.
 */
const OWN_PROCESS = ['src/session/young-generation.test.ts'];

/**
 * The slow project's files first, then vitest's own order (the e2e project, then unit; larger or,
 * with a cache, longer files first). Projects are queued by name, so the memory checks, the longest
 * files (the 200,000-request run alone takes ~40 s of wall time on a busy machine), started after
 * every e2e file and ended the suite alone, one core idle, for their last ~15-50 s.
 */
class SlowProjectFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter((f) => f.project.name === 'slow'), ...sorted.filter((f) => f.project.name !== 'slow')];
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: SlowProjectFirst },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Four files at once on these 2-core machines (vitest's default is cores − 1 = one): most e2e
    // time is spent waiting on child processes (the CLI and the reference service), not computing;
    // with two, a clean run summed 568 s of files in 385 s of wall time at a load average of ~2.
    maxWorkers: 4,
    // The grader-verdict cache defaults to the user's cache directory: tests keep theirs apart.
    env: { XDG_CACHE_HOME: join(tmpdir(), 'kbbench-test-cache') },
    // The JSON report lets .ci/run print a plain "N passed, N failed" closing line over both tiers:
    // `npm run test:slow` writes its own (--outputFile.json=reports/vitest-slow-results.json).
    reporters: ['default', 'json'],
    outputFile: { json: 'reports/vitest-results.json' },
    // `npm test` runs unit, own-process and e2e; `npm run test:slow` the slow tier;
    // `npm run test:unit` (or test:e2e) one project.
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['test/**/*.e2e.test.ts', ...SLOW, ...RUNS_DIST, ...OWN_PROCESS],
          // Worker threads, and one module graph per worker for all its files: no unit test mocks a
          // module, stubs globals or env, changes directory, exits or takes a signal (those live in
          // the e2e project, in forked processes). Each file in its own fork re-imported zod,
          // yaml, undici and src/ for each of 171 files: 110 s of CPU for the project, 49 s this way.
          pool: 'threads',
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/**/*.e2e.test.ts', ...RUNS_DIST],
          exclude: SLOW,
          // One forked process per worker for all its files, not one per file: dist/ (the CLI run
          // in-process, the service) is loaded and compiled once per worker. No e2e file mocks a module,
          // stubs globals or env, exits or takes a signal in its own process (runCliInProcess restores
          // the directory and throws on a signal listener or exit code left behind), and
          // test/shared-fork-guard.ts fails a file that leaves a server, child or timer alive in the
          // worker. A fork per file: 154 s of CPU for the project (user+sys of `vitest run --project
          // e2e`), 110 s this way.
          isolate: false,
          setupFiles: ['test/shared-fork-guard.ts'],
          // dist/ older than src/ fails here, before any test runs against a stale build.
          globalSetup: ['test/global-setup.ts'],
          // The CLI run in-process is dist/ loaded by Node itself, as the bin loads it (not re-transformed).
          server: { deps: { external: [/\/dist\//] } },
        },
      },
      { extends: true, test: { name: 'own-process', include: OWN_PROCESS } },
      {
        extends: true,
        // A fork per file (vitest's default), each file's processes its own; dist/ loaded by Node as the bin loads it.
        test: { name: 'slow', include: SLOW, globalSetup: ['test/global-setup.ts'], server: { deps: { external: [/\/dist\//] } } },
      },
    ],
  },
});
