import { describe, expect, it } from 'vitest';
import { PLANNED_REQUESTS } from './plan.js';
import { planLines, rowLines, verdictLine } from './render.js';
import type { DoctorReport } from './types.js';

const report: DoctorReport = {
  format: 'kbbench-doctor/1', tool_version: '0', checked_at: '2026-11-28T05:00:00Z', base_url: 'http://127.0.0.1:1', embedded: false,
  target: { board_id: 'b', chat_id: 'c' }, verdict: 'differs', dialect: 'ndjson', auth: { auth: 'query' }, suggested_flags: ['--auth', 'query', '--dialect', 'ndjson'],
  requests_sent: 20, credits_spent: 0.1, max_credits: 1,
  rows: [
    { probe: 'auth.query', documented: 'accepted', observed: 'HTTP 200', status: 'conforms' },
    { probe: 'stream.usage', documented: 'a usage chunk after finish', observed: 'no usage chunk', status: 'differs' },
    { probe: 'stream.finish', documented: 'finish', observed: 'a plain-text stream', status: 'not_tested' },
  ],
};

describe('doctor on the console', () => {
  it('prints every planned request and the credits expected, before sending', () => {
    const lines = planLines({ baseUrl: 'http://127.0.0.1:1', maxCredits: 0.5 });
    expect(lines[0]).toMatch(`at most ${PLANNED_REQUESTS.length} requests to http://127.0.0.1:1 (the first board and chat listed)`);
    expect(lines).toHaveLength(PLANNED_REQUESTS.length + 2);
    expect(lines.at(-1)).toMatch(/8 answers are paid: about 0\.4 credits .* --max-credits 0\.5/);
  });

  it('a differing row shows what is documented under what was seen', () => {
    const lines = rowLines(report.rows);
    expect(lines[1]).toBe('DIFF  stream.usage   no usage chunk');
    expect(lines[2]).toMatch(/^\s+documented: a usage chunk after finish$/);
    expect(lines[3]).toMatch(/not tested: a plain-text stream/);
  });

  it('one verdict line: tally, dialect, key form, what it sent and spent', () => {
    expect(verdictLine(report, 'doctor.json')).toBe(
      'doctor: differs: 1 conform, 1 differ, 1 not tested; stream dialect ndjson, key as the api_key query parameter; 20 requests, 0.1 credits → doctor.json',
    );
  });
});
