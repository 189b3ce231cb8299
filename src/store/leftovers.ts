// What a killed report or run leaves in its run directory (kill -9, SIGINT or SIGTERM while reports
// are written): temporary files of atomic writes and the hidden spill directories of the case table.
// The next report or run of that directory, holding its lock, removes them.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** atomic-file.ts's temporary names (`<file>.tmp-<8 hex>`) and case-spill.ts's and credits/reconcile.ts's directories. */
const LEFTOVER = /(?:\.tmp-[0-9a-f]{8}$)|(?:^\.kbbench-(?:cases|balances)-)/;

/** Removes the leftovers of killed writers; call it only with the directory's lock held. Returns how many. */
export function removeLeftovers(dir: string): number {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of entries) {
    if (!LEFTOVER.test(name)) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}
