import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../domain/errors.js';
import type { Sample } from '../domain/sample.js';
import { profileOptions, profileWatcher, readProfile, targetWarning } from './profile.js';

const base = { format: 'kbbench-doctor/1', checked_at: '2026-11-28T05:00:00.000Z', base_url: 'https://kb.example.com', embedded: false, dialect: 'ndjson', auth: { auth: 'header', header: 'api_key' } };

function file(content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'kbbench-profile-')), 'doctor.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('readProfile', () => {
  it('reads what doctor wrote', () => {
    expect(readProfile(file(base))).toMatchObject({ dialect: 'ndjson', auth: { auth: 'header', header: 'api_key' }, baseUrl: 'https://kb.example.com' });
  });

  it.each([
    ['not JSON', '{', /is not JSON/],
    ['another file', { name: 'suite' }, /not a doctor\.json/],
    ['an unknown dialect', { ...base, dialect: 'xml' }, /dialect/],
    ['nothing found', { ...base, dialect: null, auth: null }, /neither a key form nor a stream dialect/],
  ])('refuses %s with the file named (exit 2)', (_what, content, message) => {
    const path = file(content);
    let error: unknown;
    try {
      readProfile(path);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toMatch(message);
    expect((error as InputError).location.file).toBe(path);
  });
});

describe('profileOptions', () => {
  const profile = readProfile(file(base));
  it('sets the key form and the dialect', () => {
    expect(profileOptions(profile, {})).toEqual({ auth: 'header', apiKeyHeader: 'api_key', dialect: 'ndjson' });
  });
  it('agrees with flags that say the same, refuses flags that say otherwise', () => {
    expect(profileOptions(profile, { auth: 'header', dialect: 'ndjson' }).dialect).toBe('ndjson');
    expect(() => profileOptions(profile, { dialect: 'ui-sse' })).toThrow(/--dialect ui-sse contradicts the profile/);
    expect(() => profileOptions(profile, { auth: 'query' })).toThrow(/--auth query contradicts/);
  });
});

describe('targetWarning', () => {
  const profile = readProfile(file(base));
  it('is quiet for the service the profile describes, speaks for another', () => {
    expect(targetWarning(profile, 'https://kb.example.com/')).toBeNull();
    expect(targetWarning(profile, 'https://other.example.com')).toMatch(/describes https:\/\/kb\.example\.com, this run goes to https:\/\/other/);
    expect(targetWarning(profile, undefined)).toMatch(/the embedded reference service/);
  });
});

describe('profileWatcher', () => {
  it('warns once, at the first result the profile does not explain', () => {
    const warnings: string[] = [];
    const watch = profileWatcher(readProfile(file(base)), (text) => warnings.push(text));
    const sample = (over: Partial<Sample>): Sample => ({ status: 200, outcome: 'ok', error: null, ...over }) as Sample;
    watch(sample({}));
    expect(warnings).toEqual([]);
    watch(sample({ status: 200, outcome: 'stream_error', error: { code: 'E_STREAM', message: 'ended without a finish event' } }));
    watch(sample({ status: 401, outcome: 'http_error' }));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/did not read as ndjson: ended without a finish event .*run kbbench doctor again/);
  });
});
