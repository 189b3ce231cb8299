// The e2e tests run dist/ (the bin, and the CLI in-process): a build older than its source would let
// them pass or fail for code that is no longer there. Refuse to start instead, naming the file.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './helpers.js';

/** Source files (not tests) whose built .js is missing or older than them; empty when dist/ is current. */
export function staleBuild(root: string): string[] {
  const stale: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) {
        const built = join(root, 'dist', relative(join(root, 'src'), path)).replace(/\.ts$/, '.js');
        if (!existsSync(built) || statSync(built).mtimeMs < statSync(path).mtimeMs) stale.push(relative(root, path));
      }
    }
  };
  walk(join(root, 'src'));
  return stale;
}

export default function setup(): void {
  const stale = staleBuild(ROOT);
  if (stale.length > 0) {
    throw new Error(`dist/ is older than its source (${stale.slice(0, 5).join(', ')}${stale.length > 5 ? `, … ${stale.length - 5} more` : ''}): run npm run build before the e2e tests`);
  }
}
