import { describe, expect, it } from 'vitest';
import { MAX_SHOWN_LABEL_CHARS, shownLabel } from './shown-label.js';

describe('shownLabel', () => {
  it('keeps a label of the limit whole and cuts a longer one with an ellipsis', () => {
    const whole = 'x'.repeat(MAX_SHOWN_LABEL_CHARS);
    expect(shownLabel(whole)).toBe(whole);
    expect(shownLabel('y'.repeat(200_000))).toBe(`${'y'.repeat(MAX_SHOWN_LABEL_CHARS)}…`);
  });

  it('never splits a surrogate pair', () => {
    const cut = shownLabel(`${'a'.repeat(MAX_SHOWN_LABEL_CHARS - 1)}😀${'b'.repeat(10)}`);
    expect(cut).toBe(`${'a'.repeat(MAX_SHOWN_LABEL_CHARS - 1)}…`);
  });
});
