// promptfoo's `{{var}}` templates, rendered as Nunjucks renders its variable syntax: `{{ name }}`,
// `{{ a.b }}` (a field of an object variable), a quoted literal (`{{ "{{" }}`, Nunjucks' way to
// write braces), `{# comments #}` dropped. promptfoo renders with autoescape off, so a value goes in
// as written (no HTML escaping). Hand-written rather than adding nunjucks: a variable is all a
// chat prompt needs, and a template feature this does not render (tags `{% %}`, filters `|`,
// calls, operators) is refused by name instead of rendered differently. An unknown variable is
// refused too (Nunjucks would silently render it empty).

export type TemplateVars = Readonly<Record<string, unknown>>;

/** Why a template cannot be rendered; the reader adds file, line and field. */
export class TemplateError extends Error {}

const PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[\d+\])*$/;
const LITERAL = /^(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')$/;

function lookup(vars: TemplateVars, path: string): unknown {
  let value: unknown = vars;
  for (const part of path.split(/\.|\[(\d+)\]/).filter((p) => p !== undefined && p !== '')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function shown(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  // Nunjucks prints an object as "[object Object]"; promptfoo users mean its JSON.
  return JSON.stringify(value);
}

/** What a `{{ … }}` expression uses that is not a variable, for the error. */
function unsupported(expression: string): string {
  const filter = /\|\s*([A-Za-z_]\w*)/.exec(expression);
  if (filter) return `the filter "| ${filter[1]}"`;
  if (expression.includes('(')) return 'a call or parentheses';
  return `the expression "${expression}"`;
}

function renderExpression(expression: string, vars: TemplateVars): string {
  const literal = LITERAL.exec(expression);
  if (literal) return (literal[1] ?? literal[2] ?? '').replace(/\\(.)/g, '$1');
  if (!PATH.test(expression)) throw new TemplateError(`{{ ${expression} }} uses ${unsupported(expression)}; kbbench renders only {{ variable }} (and {{ a.b }}): write the text out`);
  const value = lookup(vars, expression);
  if (value === undefined || value === null) {
    const known = Object.keys(vars);
    throw new TemplateError(`{{ ${expression} }} names no variable; ${known.length === 0 ? 'this test has no vars' : `variables: ${known.join(', ')}`}`);
  }
  return shown(value);
}

/** True when the text has template syntax at all (plain text is returned as is, cheaply). */
export function hasTemplate(text: string): boolean {
  return text.includes('{{') || text.includes('{%') || text.includes('{#');
}

/** The text with its `{{ … }}` rendered from vars; a feature not rendered is a TemplateError naming it. */
export function renderTemplate(text: string, vars: TemplateVars): string {
  if (!hasTemplate(text)) return text;
  let out = '';
  let at = 0;
  for (;;) {
    const open = text.slice(at).search(/\{[{%#]/);
    if (open === -1) return out + text.slice(at);
    const start = at + open;
    const kind = text[start + 1];
    const close = kind === '{' ? '}}' : kind === '%' ? '%}' : '#}';
    const end = text.indexOf(close, start + 2);
    if (end === -1) throw new TemplateError(`"${text.slice(start, start + 2)}" is never closed with "${close}"`);
    out += text.slice(at, start);
    const inner = text.slice(start + 2, end).replace(/^-|-$/g, '').trim();
    if (kind === '%') throw new TemplateError(`the tag {% ${inner.split(/\s/)[0]} %} is not rendered by kbbench (only {{ variable }}); write the text out, one test per variant`);
    if (kind === '{') out += renderExpression(inner, vars);
    at = end + 2;
  }
}

/** Every string inside a value (a check's value may be a map or a list) rendered. */
export function renderDeep(value: unknown, vars: TemplateVars): unknown {
  if (typeof value === 'string') return renderTemplate(value, vars);
  if (Array.isArray(value)) return value.map((item) => renderDeep(item, vars));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderDeep(v, vars)]));
  return value;
}
