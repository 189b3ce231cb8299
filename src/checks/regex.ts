// Turns a `regex` assertion's text into a RegExp, so the suite loader and the check agree; runs it with a time limit.
import { cpuUsage } from 'node:process';
import { createContext, Script } from 'node:vm';

const LITERAL = /^\/([\s\S]+)\/([a-z]*)$/;

/**
 * `\b30\b` is a pattern with no flags; `/refund/i` is a literal with flags. `g` and `y` are
 * dropped because they make `test()` stateful (lastIndex), and a check only asks "does it match".
 * Throws SyntaxError (from the RegExp constructor) when the pattern or a flag is invalid.
 */
export function compileCheckRegex(source: string): RegExp {
  const literal = LITERAL.exec(source);
  if (literal) {
    const flags = (literal[2] ?? '').replace(/[gy]/g, '');
    return new RegExp(literal[1] ?? '', flags);
  }
  return new RegExp(source);
}

/**
 * A regex like `(a+)+$` backtracks exponentially on an answer that almost matches: 30 characters
 * can take minutes, on the event loop that times every other request of the run. V8 cannot bound
 * a match itself, but vm's `timeout` interrupts it (a watchdog thread), so the match runs there.
 * 100 ms is thousands of times what a sane pattern needs on a long answer; the cost is ~0.1 ms.
 */
export const REGEX_TIME_LIMIT_MS = 100;

export class RegexTimeoutError extends Error {
  constructor(readonly pattern: RegExp, readonly limitMs: number) {
    super(`${pattern} took longer than ${limitMs} ms on this answer (catastrophic backtracking?); simplify the pattern`);
    this.name = 'RegexTimeoutError';
  }
}

const EXEC = new Script('pattern.exec(text)');
let sandbox: { pattern: RegExp | null; text: string } | null = null;

/**
 * vm's limit is wall time: on a loaded machine a sane match can be descheduled past it and a passing
 * answer failed (compare's e2e saw `\b30\b` "take" 100 ms at load ~25). An attempt that timed out
 * while this process used less than half the limit in CPU was waiting, not matching: it is tried again,
 * at most this many attempts in all, so a catastrophic pattern still ends (within attempts × limit).
 */
export const REGEX_ATTEMPTS = 5;

/** CPU time (user + system) this process has used, in ms. */
export function processCpuMs(): number {
  const { user, system } = cpuUsage();
  return (user + system) / 1000;
}

/**
 * `pattern.exec(text)`, stopped after `limitMs`; throws RegexTimeoutError when an attempt used half the
 * limit or more in CPU (`cpuMs`: the process's CPU clock, injectable for tests), or after REGEX_ATTEMPTS.
 */
export function execWithTimeLimit(pattern: RegExp, text: string, limitMs: number = REGEX_TIME_LIMIT_MS, cpuMs: () => number = processCpuMs): RegExpExecArray | null {
  sandbox ??= createContext({ pattern: null, text: '' }) as { pattern: RegExp | null; text: string };
  sandbox.pattern = pattern;
  sandbox.text = text;
  try {
    for (let attempt = 1; ; attempt += 1) {
      const startCpuMs = cpuMs();
      try {
        return EXEC.runInContext(sandbox, { timeout: limitMs }) as RegExpExecArray | null;
      } catch (error) {
        if ((error as { code?: string }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw error;
        const usedMs = cpuMs() - startCpuMs;
        if (usedMs >= limitMs / 2 || attempt >= REGEX_ATTEMPTS) throw new RegexTimeoutError(pattern, limitMs);
      }
    }
  } finally {
    sandbox.pattern = null;
    sandbox.text = '';
  }
}
