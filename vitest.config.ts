import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at once on these 2-core machines (vitest's default is cores − 1 = one): most e2e
    // time is spent waiting on child processes (the CLI and the reference service), not computing.
    maxWorkers: 2,
    // The JSON report lets .ci/run print a plain "N passed, N failed" closing line.
    reporters: ['default', ['json', { outputFile: 'reports/vitest-results.json' }]],
  },
});
