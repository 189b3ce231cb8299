import { describe, expect, it } from 'vitest';
import { parseOutputSpec, recordableOutputs } from './spec.js';

describe('parseOutputSpec', () => {
  it('reads NAME=URL', () => {
    expect(parseOutputSpec('prometheus-rw=http://127.0.0.1:9090/api/v1/write')).toEqual({ spec: { kind: 'prometheus-rw', url: 'http://127.0.0.1:9090/api/v1/write' } });
  });
  it('names an unknown output and the known ones', () => {
    expect(parseOutputSpec('influx=http://x')).toEqual({ error: expect.stringContaining('unknown output "influx": expected one of prometheus-rw') as unknown });
  });
  it('refuses a missing = and a URL that is not http(s), without printing a password', () => {
    expect('error' in parseOutputSpec('prometheus-rw')).toBe(true);
    const bad = parseOutputSpec('prometheus-rw=ftp://user:secret@host/x');
    expect('error' in bad && bad.error).toContain('***@');
    expect(JSON.stringify(bad)).not.toContain('secret');
  });
  it('records URLs without user or password', () => {
    expect(recordableOutputs([{ kind: 'prometheus-rw', url: 'https://me:secret@host/api/v1/write' }])).toEqual([{ kind: 'prometheus-rw', url: 'https://host/api/v1/write' }]);
  });
});
