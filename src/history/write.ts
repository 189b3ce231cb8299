// Writes history.json and history.html into the output folder, each whole or not at all.
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { InputError } from '../domain/errors.js';
import { writeFileAtomic } from '../store/atomic-file.js';
import { buildHistory, type HistoryOptions } from './build.js';
import { renderHistoryHtml } from './html/render.js';
import type { HistoryJson } from './types.js';

export const HISTORY_FILES = { json: 'history.json', html: 'history.html' } as const;

export interface HistoryResult {
  json: HistoryJson;
  jsonPath: string;
  htmlPath: string;
}

export async function writeHistory(roots: readonly string[], options: Omit<HistoryOptions, 'outDir'> & { outDir: string }): Promise<HistoryResult> {
  const outDir = resolve(options.outDir);
  try {
    await mkdir(outDir, { recursive: true });
  } catch (error) {
    throw new InputError(`cannot create the output folder (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { file: options.outDir, field: '--out' });
  }
  const json = await buildHistory(roots, { ...options, outDir });
  const jsonPath = join(outDir, HISTORY_FILES.json);
  const htmlPath = join(outDir, HISTORY_FILES.html);
  await writeFileAtomic(jsonPath, `${JSON.stringify(json, null, 2)}\n`);
  await writeFileAtomic(htmlPath, renderHistoryHtml(json));
  return { json, jsonPath, htmlPath };
}
