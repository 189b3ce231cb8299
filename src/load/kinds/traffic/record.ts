// One record of a traffic log (JSONL object or CSV row) checked into a TrafficRecord: every problem
// names the file, line and field, so a log is fixed in one pass rather than one run per mistake.
import type { CheckSpec } from '../../../domain/suite.js';
import { InputError } from '../../../domain/errors.js';
import { parseAssertion, parseAssertionCell } from '../../../suite/assertion.js';

/** A request of the log: when (seconds from the log's start, or an ISO instant), what, and in which conversation. */
export interface TrafficRecord {
  /** 1-based file line the record starts on. */
  line: number;
  /** The instant as written: seconds (a number) or an ISO timestamp turned into epoch ms. */
  at: { seconds: number } | { epochMs: number };
  prompt: string;
  /** Records sharing it are the turns of one thread, in file order. */
  conversation?: string;
  model?: string;
  additional_context?: string;
  user?: string;
  source?: string;
  checks: CheckSpec[];
}

/** The fields a record may carry; anything else is refused (a typo must not be dropped silently). */
export const TRAFFIC_FIELDS = ['at', 'prompt', 'conversation', 'model', 'additional_context', 'user', 'source', 'expected', 'assert'] as const;
const TEXT_FIELDS = ['conversation', 'model', 'additional_context', 'user', 'source'] as const;
/** CSV only: promptfoo's check columns, as in a CSV suite. */
export const CHECK_COLUMN = /^__expected\d*$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

function fail(file: string, line: number, field: string | undefined, message: string): never {
  throw new InputError(message, { file, line, ...(field !== undefined ? { field } : {}) });
}

/** `at` as seconds from the log's start (a number, or a numeric CSV cell) or an ISO timestamp with its zone. */
export function parseAt(raw: unknown, file: string, line: number): TrafficRecord['at'] {
  if (typeof raw === 'number' || (typeof raw === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(raw))) {
    const seconds = Number(raw);
    if (Number.isFinite(seconds) && seconds >= 0) return { seconds };
  }
  if (typeof raw === 'string' && ISO.test(raw.trim())) {
    const epochMs = Date.parse(raw.trim());
    if (Number.isFinite(epochMs)) return { epochMs };
  }
  if (raw === undefined || raw === '') fail(file, line, 'at', 'missing: every record needs `at` (seconds from the start, or an ISO timestamp such as 2026-03-01T09:00:00Z)');
  return fail(file, line, 'at', `${JSON.stringify(raw)} is neither seconds from the start (0 or more) nor an ISO timestamp with its zone (2026-03-01T09:00:00Z)`);
}

function checksOf(raw: Record<string, unknown>, file: string, line: number): CheckSpec[] {
  const checks: CheckSpec[] = [];
  if (raw.expected !== undefined && raw.expected !== '') {
    if (typeof raw.expected !== 'string') fail(file, line, 'expected', 'is the text the answer must contain (a contains check), a string');
    checks.push({ type: 'contains', value: raw.expected } as CheckSpec);
  }
  if (raw.assert !== undefined) {
    if (!Array.isArray(raw.assert)) fail(file, line, 'assert', 'is a list of checks, e.g. [{"contains": "30 days"}]');
    raw.assert.forEach((entry, i) => {
      const parsed = parseAssertion(entry);
      if ('issues' in parsed) fail(file, line, `assert[${i}]`, parsed.issues.map((issue) => issue.message).join('; '));
      checks.push(parsed.spec);
    });
  }
  return checks;
}

/** A JSONL object (or a CSV row as an object of its cells) as a record; throws InputError naming the field. */
export function readRecord(raw: unknown, file: string, line: number, cellChecks: readonly string[] = []): TrafficRecord {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) fail(file, line, undefined, 'a record is a JSON object such as {"at": 0.5, "prompt": "…"}');
  const fields = raw as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (!(TRAFFIC_FIELDS as readonly string[]).includes(key)) {
      fail(file, line, key, `not a traffic record field (${TRAFFIC_FIELDS.join(', ')}; a CSV log also takes __expected columns)`);
    }
  }
  if (typeof fields.prompt !== 'string' || fields.prompt.trim() === '') fail(file, line, 'prompt', 'missing or empty: every record is a question to send');
  const record: TrafficRecord = { line, at: parseAt(fields.at, file, line), prompt: fields.prompt, checks: checksOf(fields, file, line) };
  for (const key of TEXT_FIELDS) {
    const value = fields[key];
    if (value === undefined || value === '') continue;
    // null is not "absent": leave the key out for none, so a log's null is never read as the default.
    if (typeof value !== 'string' && typeof value !== 'number') fail(file, line, key, value === null ? 'is null: give text, or leave the key out' : 'is text');
    record[key] = String(value);
  }
  for (const cell of cellChecks) {
    const parsed = parseAssertionCell(cell);
    if ('issues' in parsed) fail(file, line, '__expected', parsed.issues.map((issue) => issue.message).join('; '));
    record.checks.push(parsed.spec);
  }
  return record;
}
