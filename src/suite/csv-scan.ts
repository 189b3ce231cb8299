// Splits CSV bytes into records one at a time, exactly as csv-parse does with the loader's options
// (bom, relax_quotes, relax_column_count, skip_empty_lines), and can restart at any record's offset.
//
// Why not csv-parse itself: read through its callback API it takes ~11 s for 1,000,000 rows, this
// ~1 s; and restarting it at a record (to read a case again when the plan asks for it) costs an
// options normalisation per read. Its rules are copied here branch for branch (api/index.js of
// csv-parse 6), and csv-scan.test.ts holds this scanner to csv-parse on random inputs. csv-parse
// stays the authority for syntax errors: the loader asks it for the message (see csv-records.ts).

const QUOTE = 0x22;
const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;

/** The record delimiter csv-parse settles on: the first of \r\n, \n or \r met outside quotes. */
export type RecordDelimiter = 'crlf' | 'lf' | 'cr';

/** A quoted field still open at the end of the input: csv-parse's "Quote Not Closed". */
export class UnclosedQuote extends Error {
  /** `quoteAt`: the byte offset of the quote that opened the field, so an error can name its line. */
  constructor(readonly quoteAt: number) {
    super('a quoted field is not closed');
  }
}

/** The bytes of one field, decoded once: a range of the input while it is contiguous, else copied. */
class FieldBytes {
  start = 0;
  end = 0;
  private copy: Buffer | null = null;
  private copied = 0;

  get length(): number {
    return this.copy === null ? this.end - this.start : this.copied;
  }

  reset(): void {
    this.start = 0;
    this.end = 0;
    this.copy = null;
    this.copied = 0;
  }

  /** Appends bytes[from, to); a gap since the last append (a skipped quote) switches to a copy. */
  append(bytes: Buffer, from: number, to: number): void {
    if (this.copy === null && (this.end === this.start || this.end === from)) {
      if (this.end === this.start) this.start = from;
      this.end = to;
      return;
    }
    this.toCopy(bytes, to - from);
    bytes.copy(this.copy!, this.copied, from, to);
    this.copied += to - from;
  }

  /** csv-parse puts back the opening quote of a field whose closing quote turned out not to be one. */
  prependQuote(bytes: Buffer): void {
    this.toCopy(bytes, 1);
    this.copy!.copyWithin(1, 0, this.copied);
    this.copy![0] = QUOTE;
    this.copied += 1;
  }

  private toCopy(bytes: Buffer, more: number): void {
    if (this.copy === null) {
      const length = this.end - this.start;
      this.copy = Buffer.allocUnsafe(Math.max(64, (length + more) * 2));
      bytes.copy(this.copy, 0, this.start, this.end);
      this.copied = length;
    } else if (this.copied + more > this.copy.length) {
      const grown = Buffer.allocUnsafe((this.copied + more) * 2);
      this.copy.copy(grown, 0, 0, this.copied);
      this.copy = grown;
    }
  }

  /** Decoded as a whole, as csv-parse does: a multi-byte character may straddle a removed quote. */
  text(bytes: Buffer): string {
    return this.copy === null ? bytes.toString('utf8', this.start, this.end) : this.copy.toString('utf8', 0, this.copied);
  }
}

export class CsvScanner {
  /** Where the next record's reading begins (after the previous record's delimiter). */
  position: number;
  delimiter: RecordDelimiter | null;
  private readonly field = new FieldBytes();

  constructor(
    private readonly bytes: Buffer,
    start = 0,
    delimiter: RecordDelimiter | null = null,
  ) {
    this.position = start;
    this.delimiter = delimiter;
  }

  /** The length of a known record delimiter at `pos`, else 0. */
  private delimiterAt(pos: number): number {
    const c = this.bytes[pos];
    if (this.delimiter === 'lf') return c === LF ? 1 : 0;
    if (this.delimiter === 'cr') return c === CR ? 1 : 0;
    if (this.delimiter === 'crlf') return c === CR && this.bytes[pos + 1] === LF ? 2 : 0;
    return 0;
  }

  /** csv-parse's auto-discovery: \r\n before \r, checked at every position outside quotes until found. */
  private discoverAt(pos: number): number {
    const c = this.bytes[pos];
    if (c === CR) this.delimiter = this.bytes[pos + 1] === LF ? 'crlf' : 'cr';
    else if (c === LF) this.delimiter = 'lf';
    else return 0;
    return this.delimiter === 'crlf' ? 2 : 1;
  }

  /**
   * The next record's cells, or null at the end of the input; throws UnclosedQuote. `starts`, when
   * given, receives the byte offset each cell begins at (only error messages ask, to name a column).
   */
  next(starts?: number[]): string[] | null {
    const bytes = this.bytes;
    const n = bytes.length;
    const field = this.field;
    const cells: string[] = [];
    let pos = this.position;
    let quoting = false;
    let wasQuoting = false;
    let quoteAt = pos;
    field.reset();
    if (starts !== undefined) starts.length = 0;
    starts?.push(pos);
    const endField = (): void => {
      cells.push(field.text(bytes));
      field.reset();
      wasQuoting = false;
    };
    while (pos < n) {
      if (!quoting) {
        if (this.delimiter === null) this.discoverAt(pos);
        const c = bytes[pos]!;
        if (c === QUOTE && field.length === 0) {
          quoting = true;
          quoteAt = pos;
          pos += 1;
          continue;
        }
        const rd = c === CR || c === LF ? this.delimiterAt(pos) : 0;
        if (rd !== 0) {
          pos += rd;
          if (!wasQuoting && cells.length === 0 && field.length === 0) {
            if (starts !== undefined) starts[0] = pos;
            continue; // an empty line
          }
          endField();
          this.position = pos;
          return cells;
        }
        if (c === COMMA) {
          endField();
          pos += 1;
          starts?.push(pos);
          continue;
        }
        // A run of ordinary bytes (a quote inside a field is one, relax_quotes) joins the field at once.
        let end = pos + 1;
        while (end < n) {
          const d = bytes[end]!;
          if (d === COMMA || d === CR || d === LF) break;
          end += 1;
        }
        field.append(bytes, pos, end);
        pos = end;
        continue;
      }
      const c = bytes[pos]!;
      if (c !== QUOTE) {
        let end = pos + 1;
        while (end < n && bytes[end] !== QUOTE) end += 1;
        field.append(bytes, pos, end);
        pos = end;
        continue;
      }
      const next = bytes[pos + 1];
      if (next === QUOTE) {
        // An escaped quote: the first is dropped, the second kept.
        field.append(bytes, pos + 1, pos + 2);
        pos += 2;
        continue;
      }
      const closes =
        next === undefined || next === 0 || next === COMMA || (this.delimiter === null ? this.discoverAt(pos + 1) : this.delimiterAt(pos + 1)) !== 0;
      quoting = false;
      wasQuoting = true;
      if (closes) {
        pos += 1;
        continue;
      }
      // relax_quotes: a quote followed by text did not close the field; it keeps both quotes.
      field.prependQuote(bytes);
      field.append(bytes, pos, pos + 1);
      pos += 1;
    }
    this.position = n;
    if (quoting) throw new UnclosedQuote(quoteAt);
    if (wasQuoting || cells.length > 0 || field.length > 0) {
      endField();
      return cells;
    }
    return null;
  }
}
