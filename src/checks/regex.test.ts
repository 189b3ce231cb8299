import { describe, expect, it } from 'vitest';
import { execWithTimeLimit, REGEX_ATTEMPTS, RegexTimeoutError } from './regex.js';

// Unguarded, /^(a+)+$/ on 30 a's and a b backtracks for seconds: every attempt meets the limit.
const CATASTROPHIC = /^(a+)+$/;
const ALMOST = `${'a'.repeat(30)}b`;

/** A CPU clock that advances `perReadMs` at each read (two reads per attempt: its start and its end). */
function fakeCpu(perReadMs: number): { cpuMs: () => number; reads: () => number } {
  let now = 0;
  let reads = 0;
  return {
    cpuMs: () => {
      reads += 1;
      now += perReadMs;
      return now;
    },
    reads: () => reads,
  };
}

describe('execWithTimeLimit', () => {
  it('matches as exec does', () => {
    expect(execWithTimeLimit(/\b30\b/, 'within 30 days')?.[0]).toBe('30');
    expect(execWithTimeLimit(/\b30\b/, 'within 300 days')).toBeNull();
  });

  it('stops a pattern that spent the limit in CPU at its first attempt', () => {
    // Each attempt reads as having used 10 ms of CPU: the whole 10 ms limit, so it was really matching.
    const cpu = fakeCpu(5);
    expect(() => execWithTimeLimit(CATASTROPHIC, ALMOST, 10, cpu.cpuMs)).toThrow(RegexTimeoutError);
    expect(cpu.reads()).toBe(2);
  });

  it('tries again when the process was not running (a loaded machine), at most REGEX_ATTEMPTS times', () => {
    // No CPU used while the wall-clock limit passed: descheduled, not matching; the last attempt still ends it.
    const cpu = fakeCpu(0);
    expect(() => execWithTimeLimit(CATASTROPHIC, ALMOST, 10, cpu.cpuMs)).toThrow(RegexTimeoutError);
    expect(cpu.reads()).toBe(2 * REGEX_ATTEMPTS);
  });
});
