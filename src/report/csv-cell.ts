// Spreadsheet-safe CSV text cells: answers and prompts are untrusted, and a spreadsheet runs formulas.
import { escapeControls } from '../domain/controls.js';

/**
 * Excel, LibreOffice and Google Sheets read a cell that starts with = + - @ (or a tab or carriage
 * return before one) as a formula: an answer reading `=HYPERLINK("http://…")` would become a live
 * link, and a markdown list answer (`- item`) a #NAME? error. OWASP's remedy is applied to text
 * cells only: a leading `'` makes the cell plain text. Numbers stay numbers (a negative value is
 * not text), and results.ndjson keeps every text exactly as received, for scripts.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function spreadsheetSafe<T>(value: T): T | string {
  if (typeof value !== 'string') return value;
  // NUL cuts a cell short in many readers, ESC drives a terminal that `cat`s the file, U+202E reverses the line.
  const text = escapeControls(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}
