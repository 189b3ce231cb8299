// The README's three-command tour as a user types it: its `npx kbbench` lines in order, each line's
// words as written, in a folder of its own that holds the checkout's suites/ (so reports/ is fresh,
// as in a fresh clone). Run by test/readme-tour.e2e.test.ts (fast) and the slow project (verbatim).
import { mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './helpers.js';

export const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The tour's section of the README: from its heading to the next. */
export const TOUR_SECTION = README.slice(README.indexOf('## A three-command tour'), README.indexOf('\n## ', README.indexOf('## A three-command tour') + 1));

/** Each tour line's words after `npx kbbench`, comments dropped. */
export function tourLines(): string[][] {
  const block = /```sh\n([\s\S]*?)```/.exec(TOUR_SECTION)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line.startsWith('npx kbbench '))
    .map((line) => line.split(/\s+/).slice(2));
}

/** What the README says each line exits: 0, 0, and the load demo's FAIL (1), which it calls expected. */
export const TOUR_EXITS = [0, 0, 1];

/** A fresh folder where `suites/…` is the checkout's and `reports/` does not exist yet. */
export function tourDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kbbench-tour-'));
  symlinkSync(join(ROOT, 'suites'), join(dir, 'suites'));
  return dir;
}
