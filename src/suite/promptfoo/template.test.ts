// promptfoo's {{var}} templates: what is rendered as Nunjucks would, and what is refused by name.
import { describe, expect, it } from 'vitest';
import { renderDeep, renderTemplate } from './template.js';

describe('renderTemplate', () => {
  it('renders {{var}} with or without spaces, fields of objects, literals, and drops comments', () => {
    expect(renderTemplate('Convert to {{language}}: {{ input }}', { language: 'French', input: 'Hello' })).toBe('Convert to French: Hello');
    expect(renderTemplate('{{ user.name }} #{{ n }}', { user: { name: 'Ann' }, n: 3 })).toBe('Ann #3');
    expect(renderTemplate('{{ "{{" }}x}}{# note #}', {})).toBe('{{x}}');
    expect(renderTemplate('no template', {})).toBe('no template');
  });

  it('inserts values as written (promptfoo renders with autoescape off)', () => {
    expect(renderTemplate('{{body}}', { body: `<b>"I'm" & you</b>` })).toBe(`<b>"I'm" & you</b>`);
  });

  it('refuses filters, tags, calls and unknown variables, naming them', () => {
    expect(() => renderTemplate('{{ (style_config | load).tone }}', { style_config: 'x' })).toThrow(/uses the filter "\| load"; kbbench renders only/);
    expect(() => renderTemplate('{% if x %}a{% endif %}', { x: 1 })).toThrow(/the tag \{% if %\} is not rendered/);
    expect(() => renderTemplate('{{ topic }}', { body: 'x' })).toThrow(/\{\{ topic \}\} names no variable; variables: body/);
    expect(() => renderTemplate('{{ open', {})).toThrow(/never closed/);
  });

  it('renders every string inside a check value', () => {
    expect(renderDeep({ rubric: 'About {{t}}', votes: 3 }, { t: 'ML' })).toEqual({ rubric: 'About ML', votes: 3 });
  });
});
