// Unit tests: text cells are formula-safe and carry no raw control characters (finding 10).
import { describe, expect, it } from 'vitest';
import { spreadsheetSafe } from './csv-cell.js';

describe('spreadsheetSafe', () => {
  it('writes NUL, ESC and other controls escaped, keeping tabs and line breaks', () => {
    expect(spreadsheetSafe('a\u0000b\u001b[31mc')).toBe('a\\x00b\\x1b[31mc');
    expect(spreadsheetSafe('line one\nline\ttwo\r\n')).toBe('line one\nline\ttwo\r\n');
    // Called twice in a row: no state carried between calls.
    expect(spreadsheetSafe('x\u0000')).toBe('x\\x00');
    expect(spreadsheetSafe('y\u0000')).toBe('y\\x00');
  });

  it('still prefixes formulas and leaves numbers alone', () => {
    expect(spreadsheetSafe('=1+1')).toBe("'=1+1");
    expect(spreadsheetSafe(-5)).toBe(-5);
  });
});
