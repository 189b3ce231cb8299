// Writes `kbbench init`'s project into a folder, never over a file that is there.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { InputError } from '../domain/errors.js';
import { PROJECT_FILES } from './project-files.js';

/**
 * Every file is checked before any is written: an existing one is exit 2 naming it (and nothing
 * is written), so a second `init` cannot half-overwrite a project. Returns the paths written.
 */
export function writeProject(dir: string): string[] {
  const targets = PROJECT_FILES.map(([name, text]) => ({ path: join(dir, name), text }));
  const existing = targets.filter(({ path }) => existsSync(path)).map(({ path }) => path);
  if (existing.length > 0) {
    const listed = existing.length > 3 ? `${existing.slice(0, 3).join(', ')} and ${existing.length - 3} more` : existing.join(', ');
    throw new InputError(`${listed} already exist${existing.length === 1 ? 's' : ''}: kbbench init never overwrites a file, so it wrote nothing; run it in another folder (kbbench init DIR)`);
  }
  for (const { path, text } of targets) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text, { flag: 'wx' });
  }
  return targets.map(({ path }) => path);
}
