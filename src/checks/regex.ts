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

/** CPU time this process has used, in ms (user + system). */
export type CpuClock = () => number;
const processCpuMs: CpuClock = () => {
  // A clock, read as performance.now() is: nothing of the process's argv, env, stdio or exit.
  const { user, system } = cpuUsage();
  return (user + system) / 1000;
};

/** Attempts after the first when the watchdog fired but the match had not used the CPU for it. */
const RETRIES_WHEN_DESCHEDULED = 2;

/**
 * `run(limitMs)`, which throws `timedOut` errors from vm's watchdog. That watchdog counts wall time:
 * on a loaded machine (CI at four test files per core) this thread can be off the CPU for most of
 * 100 ms, and a sane pattern would be refused. So a timeout counts only when the process used at
 * least half the limit in CPU meanwhile; otherwise the match is tried again (twice at most). A
 * catastrophic pattern burns the CPU and is refused on the first attempt, as before.
 */
export function withCpuTimeLimit<T>(run: (limitMs: number) => T, limitMs: number, timedOut: (error: unknown) => boolean, cpuMs: CpuClock = processCpuMs): T {
  for (let attempt = 0; ; attempt += 1) {
    const cpuBeforeMs = cpuMs();
    try {
      return run(limitMs);
    } catch (error) {
      if (!timedOut(error)) throw error;
      const usedMs = cpuMs() - cpuBeforeMs;
      if (usedMs >= limitMs / 2 || attempt >= RETRIES_WHEN_DESCHEDULED) throw error;
    }
  }
}

const isScriptTimeout = (error: unknown): boolean => (error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';

/** `pattern.exec(text)`, stopped after `limitMs` of its own CPU time; throws RegexTimeoutError then. */
export function execWithTimeLimit(pattern: RegExp, text: string, limitMs: number = REGEX_TIME_LIMIT_MS): RegExpExecArray | null {
  sandbox ??= createContext({ pattern: null, text: '' }) as { pattern: RegExp | null; text: string };
  const context = sandbox;
  context.pattern = pattern;
  context.text = text;
  try {
    return withCpuTimeLimit((ms) => EXEC.runInContext(context, { timeout: ms }) as RegExpExecArray | null, limitMs, isScriptTimeout);
  } catch (error) {
    if (isScriptTimeout(error)) throw new RegexTimeoutError(pattern, limitMs);
    throw error;
  } finally {
    context.pattern = null;
    context.text = '';
  }
}
