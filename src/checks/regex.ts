// Turns a `regex` assertion's text into a RegExp, so the suite loader and the check agree.

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
