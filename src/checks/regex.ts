// Turns a `regex` assertion's text into a RegExp, so the suite loader and the check agree; runs it with a time limit.
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

/** `pattern.exec(text)`, stopped after `limitMs`; throws RegexTimeoutError then. */
export function execWithTimeLimit(pattern: RegExp, text: string, limitMs: number = REGEX_TIME_LIMIT_MS): RegExpExecArray | null {
  sandbox ??= createContext({ pattern: null, text: '' }) as { pattern: RegExp | null; text: string };
  sandbox.pattern = pattern;
  sandbox.text = text;
  try {
    return EXEC.runInContext(sandbox, { timeout: limitMs }) as RegExpExecArray | null;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new RegexTimeoutError(pattern, limitMs);
    throw error;
  } finally {
    sandbox.pattern = null;
    sandbox.text = '';
  }
}
