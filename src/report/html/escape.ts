// Escaping for everything that reaches report.html: answers and prompts are untrusted text.
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Control characters are parse errors in HTML (NUL even becomes U+FFFD on its own), and an
 * answer may carry any: they become U+FFFD here, visibly, as junit.xml does.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/** Escapes text for element content and quoted attribute values alike. */
export function esc(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  return String(value).replace(CONTROL_CHARS, '\uFFFD').replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]!);
}

/**
 * User text (an id, a model name) set inside a label: escaped, and isolated with <bdi> so a bidi
 * override (U+202E) in it cannot reverse the text after it. A name longer than `maxChars` is cut
 * with an ellipsis, the whole name on hover (a 50,000-character model name must not break a layout).
 */
export function userText(value: string, maxChars = Infinity): string {
  if (value.length <= maxChars) return `<bdi>${esc(value)}</bdi>`;
  return `<bdi title="${esc(value)}">${esc(`${value.slice(0, maxChars)}…`)}</bdi>`;
}

/** A safe id/class fragment: anything outside [A-Za-z0-9_-] becomes '-'. */
export function slug(value: string): string {
  return value.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 60) || 'x';
}
