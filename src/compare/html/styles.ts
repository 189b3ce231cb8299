// compare.html's stylesheet: report.html's palette and layout, plus side-by-side answers and the word diff.
import { STYLES } from '../../report/html/styles.js';

/** Removed words are struck through and added ones underlined, each with a −/+ mark: colour is never the only signal. */
export const COMPARE_STYLES = `${STYLES}
:root { --ins-bg: #d7f5dd; --ins-fg: #0f4d1f; --del-bg: #fddcd8; --del-fg: #7d1810; }
@media (prefers-color-scheme: dark) { :root { --ins-bg: #16391f; --ins-fg: #a6f0b6; --del-bg: #471a16; --del-fg: #ffb4aa; } }
ins.diff, del.diff { border-radius: 3px; padding: 0 .1em; }
ins.diff { background: var(--ins-bg); color: var(--ins-fg); text-decoration: underline 2px; }
del.diff { background: var(--del-bg); color: var(--del-fg); text-decoration: line-through 2px; }
.diff .sym { font-weight: 800; text-decoration: none; display: inline-block; margin-right: .1em; }
.items { display: grid; gap: .6rem; }
details.item { background: var(--card); border: 1px solid var(--border); border-radius: 10px; padding: .5rem .8rem; }
details.item[open] { padding-bottom: .9rem; }
details.item > summary { cursor: pointer; display: flex; flex-wrap: wrap; gap: .4rem .8rem; align-items: center; font-weight: 600; }
details.item > summary .sub { color: var(--muted); font-weight: 500; font-size: .85rem; }
.badge.changed { color: var(--accent); background: var(--accent-bg); }
.side-by-side { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: .8rem; margin-top: .6rem; }
.side-by-side pre { white-space: pre-wrap; overflow-wrap: anywhere; font: .85rem/1.5 var(--mono); background: var(--bg); border-radius: 6px; padding: .5rem .6rem; margin: .4rem 0 0; max-height: 28rem; overflow: auto; }
.toolbar { display: flex; flex-wrap: wrap; gap: .6rem; align-items: center; margin: .5rem 0 1rem; }
.toolbar input { font: inherit; padding: .3rem .6rem; border: 1px solid var(--border); border-radius: 8px; background: var(--card); color: var(--fg); min-width: 18rem; }
.toolbar button { font: inherit; background: var(--bg); color: var(--fg); border: 1px solid var(--border); border-radius: 8px; padding: .25rem .7rem; cursor: pointer; }
.reasons { margin: .8rem 0 0; padding-left: 1.2rem; color: var(--fail); font-weight: 600; }
.warnings { margin: .6rem 0 0; padding-left: 1.2rem; color: var(--error); }
td.up { color: var(--fail); font-weight: 700; }
td.down { color: var(--pass); font-weight: 700; }
.empty { color: var(--muted); }
h3.gap { margin-top: 1.2rem; }
`;
