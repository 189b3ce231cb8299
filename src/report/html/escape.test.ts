// Unit tests: user text in HTML labels is isolated and bounded (finding 10).
import { describe, expect, it } from 'vitest';
import { userText } from './escape.js';

describe('userText (HTML labels)', () => {
  it('isolates user text with <bdi>, so U+202E cannot reverse what follows, and cuts a long name with the whole on hover', () => {
    expect(userText('a\u202eb<c>')).toBe('<bdi>a\u202eb&lt;c&gt;</bdi>');
    const long = 'm'.repeat(50_000);
    const html = userText(long, 60);
    expect(html).toBe(`<bdi title="${long}">${'m'.repeat(60)}…</bdi>`);
  });
});
