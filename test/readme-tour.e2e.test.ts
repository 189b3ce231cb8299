// README.md's tour, in order: the first line's --out is the second line's --baseline, the third
// ends `verdict FAIL` as the README says it will. Each line runs as written, with only what a test
// must add: latencies at 0.2 of the service's (the baseline's medians are then the service's
// seeded ones, not this machine's scheduling) and the load demo's minute cut to 4 s at 8 starts/s,
// past the same knee. test/slow/readme-tour.slow.test.ts runs the lines word for word.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from './helpers.js';
import { TOUR_EXITS, TOUR_SECTION, tourDir, tourLines } from './readme-tour.js';

/** What this test adds to a line as written: time, nothing else. */
function added(args: readonly string[]): string[] {
  return args.includes('suites/load-demo.yaml') ? ['--stages', '4s:8'] : ['--latency-scale', '0.2'];
}

describe('README.md: the three-command tour', () => {
  const lines = tourLines();

  it('has three lines; the baseline is the directory the first line wrote; the FAIL is said to be expected', () => {
    expect(lines).toHaveLength(3);
    const out = lines[0]![lines[0]!.indexOf('--out') + 1];
    expect(lines[1]![lines[1]!.indexOf('--baseline') + 1]).toBe(out);
    expect(TOUR_SECTION).toMatch(/verdict FAIL`?\s+\(exit 1\) is expected/);
  });

  it('runs in order in a fresh folder, each line exiting as the README says', async () => {
    const cwd = tourDir();
    for (const [i, args] of lines.entries()) {
      const r = await runCliInProcess([...args, ...added(args), '--quiet'], { cwd });
      expect(r.code, `npx kbbench ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(TOUR_EXITS[i]);
      const out = args[args.indexOf('--out') + 1]!;
      expect(existsSync(join(cwd, out, 'report.html'))).toBe(true);
    }
    // The gate compared with the first run (nothing changed: a pass).
    expect(existsSync(join(cwd, lines[1]![lines[1]!.indexOf('--out') + 1]!, 'compare.json'))).toBe(true);
  }, 180_000);
});
