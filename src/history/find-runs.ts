// Finds run directories under the folders given: any folder holding a run.json, however deep (CI
// artifacts nest them), without following symbolic links into folders (a loop must not hang the
// walk). A run.json that is not a regular file (a link, a FIFO) still marks a run: the reader
// (store/run-file.ts) then reads it or refuses it, and history says why the run was skipped.
import { opendir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { InputError } from '../domain/errors.js';
import { RUN_FILES } from '../store/run-dir.js';

/** Folders never worth walking into. */
const SKIPPED_NAMES = new Set(['node_modules', '.git']);

async function* walk(dir: string): AsyncGenerator<string> {
  const children: string[] = [];
  let isRun = false;
  const handle = await opendir(dir);
  for await (const entry of handle) {
    if (entry.name === RUN_FILES.run && !entry.isDirectory()) isRun = true;
    else if (entry.isDirectory() && !SKIPPED_NAMES.has(entry.name)) children.push(entry.name);
  }
  // A run directory's own folders are not runs; its name is enough.
  if (isRun) {
    yield dir;
    return;
  }
  children.sort();
  for (const child of children) yield* walk(join(dir, child));
}

/** Every run directory under `roots`, each once, in path order. */
export async function findRunDirs(roots: readonly string[]): Promise<string[]> {
  const found = new Set<string>();
  for (const root of roots) {
    const dir = resolve(root);
    let info;
    try {
      info = await stat(dir);
    } catch (error) {
      throw new InputError(`cannot read ${root}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { file: root, field: 'DIR' });
    }
    if (!info.isDirectory()) throw new InputError(`${root} is not a directory`, { file: root, field: 'DIR' });
    for await (const run of walk(dir)) found.add(run);
  }
  return [...found];
}
