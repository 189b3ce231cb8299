// A workspace's `documents: [docs/*.md]`: `*` and `?` in the file name, sorted. The service shares no
// code with the harness but protocol/, so this is its own copy of suite/include.ts's rule (same meaning).
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/** The files a document entry names, relative to the workspace folder; a name without a wildcard is itself. */
export async function expandDocumentEntry(folder: string, entry: string): Promise<string[]> {
  const path = resolve(folder, entry);
  const name = basename(path);
  if (!/[*?]/.test(name)) return [path];
  const matcher = new RegExp(`^${name.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')}$`);
  let names: string[];
  try {
    names = await readdir(dirname(path));
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const candidate of names.filter((n) => matcher.test(n)).sort()) {
    const full = join(dirname(path), candidate);
    if ((await stat(full).catch(() => null))?.isFile()) files.push(full);
  }
  return files;
}
