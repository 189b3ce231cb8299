// compare.html's item sections: each regression, fix or changed answer with both answers side by side and the word diff.
import { esc, userText } from '../../report/html/escape.js';
import { diffSides } from '../text-diff.js';
import { checkRegressionLabel, itemLabel, sideOutcome } from '../labels.js';
import type { DiffPart, ItemChange, ItemOnly, ItemSide } from '../types.js';

/** Bounds what one page holds; compare.json keeps every item. */
export const HTML_LIMITS = { items: 400, openItems: 30 } as const;

export type ItemKind = 'regression' | 'fix' | 'changed';

const BADGES: Record<ItemKind, string> = {
  regression: '<span class="badge fail">✗ regression</span>',
  fix: '<span class="badge pass">✓ fix</span>',
  changed: '<span class="badge changed">≠ changed</span>',
};

/** Kept words plain; removed ones as <del>, added ones as <ins>, each with a visible −/+ and words for screen readers. */
export function renderDiffParts(parts: readonly DiffPart[]): string {
  return parts
    .map((p) => {
      if (p.op === '=') return esc(p.text);
      const [tag, sym, word] = p.op === '-' ? ['del', '−', 'removed'] : ['ins', '+', 'added'];
      return `<${tag} class="diff"><span class="sym" aria-hidden="true">${sym}</span><span class="sr-only">${word}: </span>${esc(p.text)}</${tag}>`;
    })
    .join('');
}

function sideColumn(title: string, side: ItemSide, parts: readonly DiffPart[] | null): string {
  const badge = side.pass ? '<span class="badge pass">✓ pass</span>' : '<span class="badge fail">✗ fail</span>';
  const checks = side.failed_checks.length + side.errors.length > 0
    ? `<ul class="checks">${[...side.errors, ...side.failed_checks].map((c) => `<li><span class="no" aria-hidden="true">✗</span> ${esc(c)}</li>`).join('')}</ul>`
    : '';
  const body = parts ? renderDiffParts(parts) : esc(side.text);
  const cut = side.text_cut
    ? `<p class="note">Answer cut: the first ${side.text_cut.shown.toLocaleString('en')} of ${side.text_cut.chars.toLocaleString('en')} characters are shown; results.ndjson holds it whole.</p>`
    : '';
  return `<div class="answer-col"><h4>${esc(title)} ${badge} <span class="sub">${esc(sideOutcome(side))}</span></h4>${checks}<pre>${body || '<span class="empty">(no answer text)</span>'}</pre>${cut}</div>`;
}

function searchText(item: ItemChange | ItemOnly): string {
  return [item.item_id, item.model, item.case_id, item.thread_id, item.prompt].filter(Boolean).join(' ').toLowerCase();
}

export function renderChange(item: ItemChange, kind: ItemKind, open: boolean): string {
  const sides = item.diff.length > 0 ? diffSides(item.diff) : null;
  const similarity = item.diff.length > 0 ? `similarity ${item.similarity.toFixed(2)}` : 'same answer';
  return `<details class="item" data-search="${esc(searchText(item))}"${open ? ' open' : ''}>
<summary>${BADGES[kind]} <span>${userText(itemLabel(item), 200)}</span> <span class="sub">${esc(sideOutcome(item.base))} → ${esc(sideOutcome(item.head))} · ${esc(similarity)}</span></summary>
${item.prompt ? `<div class="prompt">${esc(item.prompt)}</div>` : ''}
${item.newly_failed_checks.length > 0 ? `<ul class="checks">${item.newly_failed_checks.map((c) => `<li><span class="no" aria-hidden="true">✗</span> ${esc(checkRegressionLabel(c))}</li>`).join('')}</ul>` : ''}
<div class="side-by-side">${sideColumn('Base', item.base, sides?.base ?? null)}${sideColumn('Head', item.head, sides?.head ?? null)}</div>
<p class="note mono">${esc(item.item_ids.join(' · '))}</p>
</details>`;
}

export function renderChanges(items: readonly ItemChange[], kind: ItemKind, emptyText: string): string {
  if (items.length === 0) return `<p class="empty">${esc(emptyText)}</p>`;
  const shown = items.slice(0, HTML_LIMITS.items);
  const more = items.length > shown.length ? `<p class="note">${items.length - shown.length} more in compare.json.</p>` : '';
  return `<div class="items">${shown.map((item, i) => renderChange(item, kind, kind === 'regression' && i < HTML_LIMITS.openItems)).join('\n')}</div>${more}`;
}

/** Missing (base only) or added (head only) items: a plain table. */
export function renderOnly(items: readonly ItemOnly[], emptyText: string): string {
  if (items.length === 0) return `<p class="empty">${esc(emptyText)}</p>`;
  const rows = items.slice(0, HTML_LIMITS.items).map((i) =>
    `<tr data-search="${esc(searchText(i))}"><th scope="row" class="text">${userText(itemLabel(i), 200)}</th><td class="text">${esc(sideOutcome(i.side))}</td><td class="text mono">${esc(i.item_id)}</td></tr>`,
  );
  return `<div class="table-scroll"><table><thead><tr><th scope="col">item</th><th scope="col" class="text">outcome</th><th scope="col" class="text">item_id</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}
