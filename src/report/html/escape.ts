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

/** A safe id/class fragment: anything outside [A-Za-z0-9_-] becomes '-'. */
export function slug(value: string): string {
  return value.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 60) || 'x';
}
