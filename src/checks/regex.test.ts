import { describe, expect, it } from 'vitest';
import { compileCheckRegex, execWithTimeLimit, RegexTimeoutError, withCpuTimeLimit } from './regex.js';

class Timeout extends Error {}
const timedOut = (error: unknown): boolean => error instanceof Timeout;

describe('withCpuTimeLimit', () => {
  it('tries again when the watchdog fired while the process was off the CPU (a loaded machine)', () => {
    let attempts = 0;
    const result = withCpuTimeLimit(() => {
      attempts += 1;
      if (attempts < 3) throw new Timeout();
      return 'matched';
    }, 100, timedOut, () => 0);
    expect(result).toBe('matched');
    expect(attempts).toBe(3);
  });

  it('gives up after two retries even off the CPU, so a wedged match cannot loop', () => {
    let attempts = 0;
    expect(() => withCpuTimeLimit(() => {
      attempts += 1;
      throw new Timeout();
    }, 100, timedOut, () => 0)).toThrow(Timeout);
    expect(attempts).toBe(3);
  });

  it('refuses at once when the match itself used the CPU for at least half the limit', () => {
    let cpuMs = 0;
    let attempts = 0;
    expect(() => withCpuTimeLimit(() => {
      attempts += 1;
      cpuMs += 60;
      throw new Timeout();
    }, 100, timedOut, () => cpuMs)).toThrow(Timeout);
    expect(attempts).toBe(1);
  });

  it('passes other errors through without retrying', () => {
    let attempts = 0;
    expect(() => withCpuTimeLimit(() => {
      attempts += 1;
      throw new TypeError('boom');
    }, 100, timedOut, () => 0)).toThrow(TypeError);
    expect(attempts).toBe(1);
  });
});

describe('execWithTimeLimit', () => {
  it('matches as RegExp.exec does', () => {
    expect(execWithTimeLimit(compileCheckRegex('/TLS 1\\.[23]/i'), 'we use tls 1.3')?.[0]).toBe('tls 1.3');
    expect(execWithTimeLimit(compileCheckRegex('\\b30\\b'), 'within 300 days')).toBeNull();
  });

  it('refuses a catastrophic pattern (it burns the CPU, so no retry saves it)', () => {
    expect(() => execWithTimeLimit(/^(a+)+$/, `${'a'.repeat(40)}!`, 50)).toThrow(RegexTimeoutError);
  });
});
