// Writes a comparison's files: compare.json and compare.html into a directory, and the markdown summary where asked.
import { RUN_FILES } from '../store/run-dir.js';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../store/atomic-file.js';
import { renderCompareHtml } from './html/render.js';
import { renderCompareMarkdown } from './markdown.js';
import type { Comparison } from './types.js';

export const COMPARE_FILES = { json: RUN_FILES.compareJson, html: RUN_FILES.compareHtml } as const;

export interface WrittenComparison {
  json: string;
  html: string;
  markdown?: string;
}

export async function writeComparison(outDir: string, comparison: Comparison, markdownPath?: string): Promise<WrittenComparison> {
  mkdirSync(outDir, { recursive: true });
  const written: WrittenComparison = {
    json: await writeFileAtomic(join(outDir, COMPARE_FILES.json), `${JSON.stringify(comparison, null, 2)}\n`),
    html: await writeFileAtomic(join(outDir, COMPARE_FILES.html), renderCompareHtml(comparison)),
  };
  if (markdownPath !== undefined) {
    mkdirSync(dirname(markdownPath), { recursive: true });
    written.markdown = await writeFileAtomic(markdownPath, renderCompareMarkdown(comparison));
  }
  return written;
}
