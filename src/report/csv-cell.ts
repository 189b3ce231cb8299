// Spreadsheet-safe CSV text cells: answers and prompts are untrusted, and a spreadsheet runs formulas.

/**
 * Excel, LibreOffice and Google Sheets read a cell that starts with = + - @ (or a tab or carriage
 * return before one) as a formula: an answer reading `=HYPERLINK("http://…")` would become a live
 * link, and a markdown list answer (`- item`) a #NAME? error. OWASP's remedy is applied to text
 * cells only: a leading `'` makes the cell plain text. Numbers stay numbers (a negative value is
 * not text), and results.ndjson keeps every text exactly as received, for scripts.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * NUL and the other control characters but tab and line breaks (which CSV quotes) are written as
 * `\x00`: a NUL cuts a cell short in many readers, and an ESC would drive a terminal that `cat`s the file.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
/** The same without `g`: a global regex's test() keeps state between calls. */
const HAS_CONTROL = new RegExp(CONTROL.source);

export function spreadsheetSafe<T>(value: T): T | string {
  if (typeof value !== 'string') return value;
  const text = HAS_CONTROL.test(value) ? value.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`) : value;
  return FORMULA_START.test(text) ? `'${text}` : text;
}
