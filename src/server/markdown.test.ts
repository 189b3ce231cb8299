import { describe, expect, it } from 'vitest';
import { splitMarkdown, splitSentences, stripMarkdown } from './markdown.js';

const doc = `# Refunds

Intro paragraph
continues here.

## Refund window

We refund within **30 days**.

- First item
  continued.
- Second item

\`\`\`
code is skipped
\`\`\`

### Deeper
1. Numbered item
`;

describe('splitting markdown', () => {
  it('yields paragraphs and list items under their headings, in order', () => {
    const { title, passages } = splitMarkdown(doc, 'docs/refunds.md');
    expect(title).toBe('Refunds');
    expect(passages.map((p) => [p.heading, p.text])).toEqual([
      ['', 'Intro paragraph continues here.'],
      ['Refund window', 'We refund within **30 days**.'],
      ['Refund window', 'First item continued.'],
      ['Refund window', 'Second item'],
      ['Deeper', 'Numbered item'],
    ]);
    expect(passages.map((p) => p.order)).toEqual([0, 1, 2, 3, 4]);
    expect(new Set(passages.map((p) => p.id)).size).toBe(5);
    expect(passages.every((p) => p.source === 'document' && p.docTitle === 'Refunds')).toBe(true);
  });

  it('falls back to the file name as title and copes with CRLF and a BOM', () => {
    const { title, passages } = splitMarkdown('\uFEFFOne.\r\n\r\nTwo.\r\n', 'notes.md');
    expect(title).toBe('notes');
    expect(passages.map((p) => p.text)).toEqual(['One.', 'Two.']);
  });

  it('strips inline markdown for plain text', () => {
    expect(stripMarkdown('**Team** costs `€29` — see [pricing](https://x.example) and _notes_')).toBe('Team costs €29 — see pricing and notes');
    expect(stripMarkdown('- item')).toBe('item');
  });

  it('splits sentences without breaking prices or abbreviations', () => {
    expect(splitSentences('It costs €29.00 per month. Annual billing saves 17%! Ask e.g. sales.')).toEqual([
      'It costs €29.00 per month.',
      'Annual billing saves 17%!',
      'Ask e.g. sales.',
    ]);
  });
});
