// One CSV record as text, quoted exactly as csv-stringify quotes it with the options samples.csv uses
// (its defaults, booleans as true/false). csv-stringify builds a context object per field and passes
// each row through an object-mode stream: writing a 1,000,000-line samples.csv that way allocated
// about 14 KB per row (its per-field `cast` context), most of the report phase's garbage in a heap
// profile. csv-row.test.ts holds this to csv-stringify's output on random fields, so the file is
// byte for byte what the library writes.

export type CsvCell = string | number | boolean | null | undefined;

/** A field as csv-stringify writes it: RFC 4180 quoting when it holds `"`, `,`, `\n` or `\r`. */
function field(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  if (value === '') return '';
  const hasQuote = value.includes('"');
  if (!hasQuote && !value.includes(',') && !value.includes('\n') && !value.includes('\r')) return value;
  return `"${hasQuote ? value.replaceAll('"', '""') : value}"`;
}

/** The record's fields joined by commas, and its line end. */
export function csvRecord(cells: readonly CsvCell[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i += 1) {
    if (i > 0) line += ',';
    line += field(cells[i]);
  }
  return `${line}\n`;
}
