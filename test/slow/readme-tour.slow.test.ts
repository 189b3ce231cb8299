// README.md's tour word for word, through the built bin, as a new user runs it in a fresh clone:
// about two minutes (the load demo's ramp is one), so it lives with the slow tests.
// test/readme-tour.e2e.test.ts runs the same lines faster.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers.js';
import { TOUR_EXITS, tourDir, tourLines } from '../readme-tour.js';

describe('README.md: the three-command tour, as written', () => {
  it('every line exits as the README says: 0, 0, then the load demo\'s expected FAIL', async () => {
    const cwd = tourDir();
    const lines = tourLines();
    expect(lines).toHaveLength(3);
    for (const [i, args] of lines.entries()) {
      const r = await runCli(args, { cwd, timeoutMs: 180_000 });
      expect(r.code, `npx kbbench ${args.join(' ')}\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`).toBe(TOUR_EXITS[i]);
      if (i === 2) expect(r.stdout).toMatch(/verdict FAIL/);
    }
  }, 300_000);
});
