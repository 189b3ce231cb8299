// Records one at a time: their lines, blank ones skipped, UTF-16 files, csv-parse's own syntax message.
import { describe, expect, it } from 'vitest';
import { readCsvRecordAt, scanCsvRecords, type CsvRecord } from './csv-records.js';
import { SuiteError } from './suite-error.js';

function scan(input: Uint8Array): { records: CsvRecord[]; froms: number[] } {
  const records: CsvRecord[] = [];
  const froms: number[] = [];
  scanCsvRecords(input, 'r.csv', (record, from) => {
    records.push(record);
    froms.push(from);
  });
  return { records, froms };
}

describe('scanCsvRecords', () => {
  it('gives each record the line it starts on, past multi-line cells and blank lines, skipping blank records', () => {
    const { records } = scan(Buffer.from('id,prompt\r\na,"one\r\ntwo"\r\n\r\n , \r\nb,Hi\r\n'));
    expect(records).toEqual([
      { line: 1, cells: ['id', 'prompt'] },
      { line: 2, cells: ['a', 'one\r\ntwo'] },
      { line: 6, cells: ['b', 'Hi'] },
    ]);
  });

  it('reads any record again from its offset', () => {
    const input = Buffer.from('\uFEFFid,prompt\n\n"a, b","x\ny"\nc,d');
    const { records, froms } = scan(input);
    const source = scanCsvRecords(input, 'r.csv', () => {});
    froms.slice(1).forEach((from, i) => expect(readCsvRecordAt(source, from)).toEqual(records[i + 1]?.cells));
  });

  it('reads a UTF-16LE file (with its BOM) as csv-parse does', () => {
    const input = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('id,prompt\r\nc1,Grüße\r\n', 'utf16le')]);
    expect(scan(input).records).toEqual([
      { line: 1, cells: ['id', 'prompt'] },
      { line: 2, cells: ['c1', 'Grüße'] },
    ]);
  });

  it('names the line and column where an unclosed quote opened', () => {
    let error: unknown;
    try {
      scan(Buffer.from('id,prompt\nc1,"unclosed\nc2,Hi\n'));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SuiteError);
    expect((error as SuiteError).issues.map((issue) => issue.describe())).toEqual([
      'r.csv:2:4 CSV syntax: this quote opens a field that is never closed (the file ends inside it); close it with " or double a quote inside the text as ""',
    ]);
  });
});
