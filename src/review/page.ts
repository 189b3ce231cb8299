// The review page: one self-contained HTML document (no CDN, works offline); answers come as JSON and
// are rendered on the client as text (textContent), so no markup in an answer is ever parsed.
import type { RunInfo } from '../domain/run.js';
import { esc } from '../report/html/escape.js';
import { pageHead } from '../report/html/page-head.js';
import { REVIEW_SCRIPT } from './page-script.js';
import { REVIEW_STYLES } from './page-styles.js';

/**
 * Only the page's own script and style (by nonce), requests only to this server. `frame-ancestors`
 * holds only in the response header (`header`), not in a meta tag.
 */
export function reviewCsp(nonce: string, header: boolean): string {
  return `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'${header ? "; frame-ancestors 'none'" : ''}`;
}

export function reviewPage(nonce: string, run: RunInfo): string {
  const title = `review · ${run.suite.name}`;
  return `${pageHead(title, REVIEW_STYLES, { csp: reviewCsp(nonce, false), nonce })}
<body>
<header>
  <h1>${esc(title)} <small>run ${esc(run.run_id)}</small></h1>
  <div id="progress" aria-live="polite">loading…</div>
</header>
<nav id="filters" aria-label="filters">
  <label>model <select id="f-model"><option value="">all</option></select></label>
  <label>tag <select id="f-tag"><option value="">all</option></select></label>
  <label>checks <select id="f-verdict"><option value="">any</option><option value="pass">passed</option><option value="fail">failed</option><option value="not judged">not judged</option></select></label>
  <label><input type="checkbox" id="f-disagree"> grader and person disagree</label>
  <label><input type="checkbox" id="f-todo"> not yet reviewed</label>
  <span id="count"></span>
</nav>
<main>
  <ol id="list" aria-label="answers"></ol>
  <section id="detail" aria-live="polite">
    <div id="empty">No answer matches the filters.</div>
    <div id="answer" hidden>
      <p id="meta"></p>
      <div id="thread"></div>
      <h2>Question</h2><pre id="question"></pre>
      <h2>Answer</h2><pre id="text"></pre>
      <h2>Checks</h2><table id="checks"><thead><tr><th>check</th><th>verdict</th><th>reason</th><th>rubric or reference</th></tr></thead><tbody></tbody></table>
      <div id="label-bar">
        <span id="label-state"></span>
        <button id="b-yes" type="button" title="y">Right (y)</button>
        <button id="b-no" type="button" title="n">Wrong (n)</button>
        <button id="b-undo" type="button" title="u">Undo (u)</button>
        <input id="note" type="text" maxlength="2000" placeholder="note (optional; c to type, Enter to keep)" aria-label="note">
      </div>
      <p id="save-state" role="status"></p>
    </div>
  </section>
</main>
<footer>j / k next / previous · y right · n wrong · u undo · c note · labels go to labels.csv in the run directory as you give them</footer>
<script nonce="${esc(nonce)}">${REVIEW_SCRIPT}</script>
</body>
</html>
`;
}
