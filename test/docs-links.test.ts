// Every relative link of the README, BENCHMARKS.md and docs/ resolves: the file exists inside the
// repository, and a #anchor names a heading (GitHub's slug) or an id of the page it points to.
// Pages are moved and headings renamed often; a dead link is found here, not by a reader.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

/** README.md, BENCHMARKS.md and every .md under docs/, as paths relative to the root. */
export function markdownPages(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir)).flatMap((name) => {
      const path = `${dir}/${name}`;
      if (statSync(join(ROOT, path)).isDirectory()) return walk(path);
      return name.endsWith('.md') ? [path] : [];
    });
  return ['README.md', 'BENCHMARKS.md', ...walk('docs')];
}

/** The page's text without fenced code blocks and inline code: links there are examples, not links. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's heading anchor: formatting dropped, lower case, punctuation removed, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor a page offers: its headings' slugs (repeats numbered as GitHub does) and explicit ids. */
function anchors(text: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of text.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1] ?? '');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of text.matchAll(/\b(?:id|name)="([^"]+)"/g)) out.add(m[1] ?? '');
  return out;
}

/** Relative link targets of a page: [text](target), ![alt](target) and <img src="target">. */
function links(text: string): string[] {
  const body = prose(text);
  const inline = [...body.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? '');
  const html = [...body.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
  return [...inline, ...html].filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

/** Why a link does not resolve, or undefined when it does. */
function broken(page: string, target: string): string | undefined {
  const [file = '', anchor] = target.split('#', 2);
  const path = file === '' ? join(ROOT, page) : resolve(ROOT, dirname(page), decodeURIComponent(file));
  const inside = relative(ROOT, path);
  if (inside.startsWith('..')) return 'points outside the repository';
  if (!existsSync(path)) return 'no such file';
  if (anchor === undefined || anchor === '') return undefined;
  if (!path.endsWith('.md')) return 'an anchor into a page that is not markdown';
  return anchors(readFileSync(path, 'utf8')).has(anchor) ? undefined : `no heading or id "${anchor}" in ${inside}`;
}

describe('links in the README, BENCHMARKS.md and docs/', () => {
  const pages = markdownPages();

  it('finds the pages and their links (the extraction works)', () => {
    expect(pages).toEqual(expect.arrayContaining(['README.md', 'BENCHMARKS.md', 'docs/architecture.md']));
    expect(links('[a](docs/x.md#y) `[b](c.md)` ![i](p.png) [w](https://example.com) <img src="docs/r.png">')).toEqual(['docs/x.md#y', 'p.png', 'docs/r.png']);
    expect(slug('After the redesign (2026-11-23, 00:15–00:50 UTC, load1 1.3–2.6)')).toBe('after-the-redesign-2026-11-23-00150050-utc-load1-1326');
    expect(slug('e. `peers-throughput`: requests per second')).toBe('e-peers-throughput-requests-per-second');
  });

  it.each(pages)('%s: every relative link and #anchor resolves inside the repository', (page) => {
    const text = readFileSync(join(ROOT, page), 'utf8');
    const dead = links(text)
      .map((target) => ({ target, why: broken(page, target) }))
      .filter((l) => l.why !== undefined)
      .map((l) => `${l.target}: ${l.why}`);
    expect(dead).toEqual([]);
  });
});
