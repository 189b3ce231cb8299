// Reads a traffic log (JSONL or CSV) as a stream of records with their offsets: memory follows one
// record, never the file, so a log of ten million requests is read in a few megabytes.
import { createReadStream } from 'node:fs';
import { extname } from 'node:path';
import { parse } from 'csv-parse';
import { InputError } from '../../../domain/errors.js';
import { fileLines } from './file-lines.js';
import { CHECK_COLUMN, readRecord, TRAFFIC_FIELDS, type TrafficRecord } from './record.js';

/** A record and when it is due: ms from the log's start (its first record's instant for ISO timestamps). */
export interface LogEntry {
  record: TrafficRecord;
  offsetMs: number;
}

export type LogFormat = 'jsonl' | 'csv';

/** The format by extension: `.jsonl`/`.ndjson` or `.csv`; anything else is refused with the two names. */
export function logFormatOf(file: string): LogFormat {
  const ext = extname(file).toLowerCase();
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl';
  if (ext === '.csv') return 'csv';
  throw new InputError(`a traffic log is .jsonl (one JSON object a line) or .csv (a header row with at and prompt); got "${ext || 'no extension'}"`, { file });
}

async function* jsonlObjects(file: string): AsyncGenerator<TrafficRecord> {
  let line = 0;
  for await (const text of fileLines(file)) {
    line += 1;
    const body = line === 1 ? text.replace(/^\uFEFF/, '') : text;
    if (body.trim() === '') continue;
    let raw: unknown;
    try {
      raw = JSON.parse(body);
    } catch (error) {
      throw new InputError(`not JSON: ${(error as Error).message}`, { file, line });
    }
    yield readRecord(raw, file, line);
  }
}

function csvHeader(cells: string[], file: string): void {
  for (const [i, name] of cells.entries()) {
    // Two columns of one field: which cell to send would be a guess (repeated __expected columns are each a check).
    const first = cells.indexOf(name);
    if (first !== i && !CHECK_COLUMN.test(name)) throw new InputError(`column ${i + 1} "${name}" repeats column ${first + 1}`, { file, line: 1, field: name });
    if (!(TRAFFIC_FIELDS as readonly string[]).includes(name) && !CHECK_COLUMN.test(name)) {
      throw new InputError(`column ${i + 1} "${name}" is not a traffic log column (${TRAFFIC_FIELDS.join(', ')}, __expected…)`, { file, line: 1, field: name });
    }
  }
  if (!cells.includes('at') || !cells.includes('prompt')) throw new InputError('the header row needs the columns at and prompt', { file, line: 1 });
}

async function* csvRows(file: string): AsyncGenerator<TrafficRecord> {
  const rows = createReadStream(file).pipe(parse({ bom: true, info: true, relax_column_count: true, skip_empty_lines: true }));
  let header: string[] | null = null;
  try {
    for await (const { record: cells, info } of rows as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      // csv-parse gives the line a record ends on; a quoted field's newlines move its start back.
      const line = info.lines - cells.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0);
      if (header === null) {
        header = cells.map((cell) => cell.trim());
        csvHeader(header, file);
        continue;
      }
      // A cell past the header has no field to be read as: refused, never dropped (a short row is empty cells).
      const extra = cells.slice(header.length).findIndex((cell) => cell.trim() !== '');
      if (extra !== -1) throw new InputError(`cell ${header.length + extra + 1} is past the header's ${header.length} columns`, { file, line });
      const fields: Record<string, string> = {};
      const checks: string[] = [];
      header.forEach((name, i) => {
        const cell = cells[i] ?? '';
        if (CHECK_COLUMN.test(name)) {
          if (cell.trim() !== '') checks.push(cell);
        } else if (cell !== '') fields[name] = cell;
      });
      yield readRecord(fields, file, line, checks);
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`not CSV: ${(error as Error).message}`, { file });
  }
}

/** The records of a log, one at a time, in file order. */
export function readLogRecords(file: string): AsyncGenerator<TrafficRecord> {
  return logFormatOf(file) === 'jsonl' ? jsonlObjects(file) : csvRows(file);
}

/**
 * The records with their offsets. A log is replayed in order, so a record earlier than the one
 * before it is an error (sort the log first) rather than a request sent at another instant than written.
 */
export async function* readLog(file: string): AsyncGenerator<LogEntry> {
  let firstEpochMs: number | null = null;
  let form: 'seconds' | 'iso' | null = null;
  let lastMs = -Infinity;
  for await (const record of readLogRecords(file)) {
    const recordForm = 'seconds' in record.at ? 'seconds' : 'iso';
    if (form !== null && recordForm !== form) {
      throw new InputError(`\`at\` is ${recordForm === 'iso' ? 'an ISO timestamp' : 'seconds'} here but ${form === 'iso' ? 'ISO timestamps' : 'seconds'} above: one log uses one form`, { file, line: record.line, field: 'at' });
    }
    form = recordForm;
    let offsetMs: number;
    if ('seconds' in record.at) offsetMs = record.at.seconds * 1000;
    else {
      firstEpochMs ??= record.at.epochMs;
      offsetMs = record.at.epochMs - firstEpochMs;
    }
    if (offsetMs < lastMs) {
      throw new InputError(`is ${offsetMs / 1000}s, before the record above (${lastMs / 1000}s): a log is replayed in order, so sort it by at`, { file, line: record.line, field: 'at' });
    }
    lastMs = offsetMs;
    yield { record, offsetMs };
  }
}
