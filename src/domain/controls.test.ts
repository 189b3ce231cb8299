import { describe, expect, it } from 'vitest';
import { escapeControls } from './controls.js';

describe('escapeControls', () => {
  it('shows NUL, ESC, C1 and bidi controls escaped, and keeps tab, line breaks and ordinary text', () => {
    expect(escapeControls('a\u0000b\u001b[31mc')).toBe('a\\x00b\\x1b[31mc');
    expect(escapeControls('id\u202eevil\u2066x\u2069\u200f\u0085')).toBe('id\\u202eevil\\u2066x\\u2069\\u200f\\x85');
    expect(escapeControls('tab\there\nline\r\nend é 日本')).toBe('tab\there\nline\r\nend é 日本');
  });
});
