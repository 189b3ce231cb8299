// Escaping for everything that reaches report.html: answers and prompts are untrusted text.
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for element content and quoted attribute values alike. */
export function esc(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  return String(value).replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]!);
}

/** A safe id/class fragment: anything outside [A-Za-z0-9_-] becomes '-'. */
export function slug(value: string): string {
  return value.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 60) || 'x';
}
