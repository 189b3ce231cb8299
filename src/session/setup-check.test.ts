import { describe, expect, it } from 'vitest';
import type { Sample, SampleError } from '../domain/sample.js';
import { sampleWith } from '../test-support/fixtures.js';
import { createSetupCheck, SETUP_FAILURES_TO_STOP } from './setup-check.js';

function result(model: string, outcome: Sample['outcome'], status: number | null, code: SampleError['code'] = 'E_NOT_FOUND'): Sample {
  return sampleWith({ model, outcome, status, error: outcome === 'ok' ? null : { code, message: `HTTP ${status}` } });
}

const TARGET = { boardId: 'b', chatId: 'c' };

describe('createSetupCheck', () => {
  it('stops when the first requests of the run, across models, all get the same 404, naming the target', () => {
    const check = createSetupCheck(TARGET);
    expect(check.observe(result('a', 'http_error', 404))).toBeNull();
    expect(check.observe(result('b', 'http_error', 404))).toBeNull();
    expect(check.observe(result('a', 'http_error', 404))).toMatchObject({ by: 'setup', detail: expect.stringMatching(/check the target \(board b, chat c\)/) });
  });

  it('stops for one model refused from its start while another answers, naming the model; skips extend the streak', () => {
    const check = createSetupCheck(TARGET);
    expect(check.observe(result('ok-model', 'ok', 200))).toBeNull();
    expect(check.observe(result('bad', 'http_error', 400, 'E_VALIDATION'))).toBeNull();
    expect(check.observe(result('bad', 'skipped', null, 'E_SKIPPED'))).toBeNull();
    expect(check.observe(result('bad', 'skipped', null, 'E_SKIPPED'))).toMatchObject({ detail: expect.stringMatching(/model bad .*--models bad/) });
  });

  it('never stops once a request succeeded, or for 5xx, 429 or mixed refusals', () => {
    for (const first of [result('a', 'ok', 200), result('a', 'http_error', 500, 'E_SERVER'), result('a', 'http_error', 429, 'E_RATE_LIMITED'), result('a', 'http_error', 400, 'E_VALIDATION')]) {
      const check = createSetupCheck(TARGET);
      check.observe(first);
      for (let i = 0; i < SETUP_FAILURES_TO_STOP * 3; i++) expect(check.observe(result('a', 'http_error', 404))).toBeNull();
    }
  });
});
