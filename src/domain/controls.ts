// Characters from outside that a file must show, never obey: control characters and bidi controls.

/**
 * C0 controls but tab and line breaks (a file's own layout, which CSV quotes), DEL, C1 controls, and
 * the bidi marks, embeddings, overrides and isolates: U+202E in a case id would reverse the rest of
 * its line in a spreadsheet, an editor or a pull-request comment (Trojan Source, CVE-2021-42574).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const SHOWN_NOT_OBEYED = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** The same without `g`: a global regex's test() keeps state between calls. */
const HAS_ANY = new RegExp(SHOWN_NOT_OBEYED.source);

/** `\x00` for a byte-sized one, `\u202e` for the others. */
export function escapeControls(text: string): string {
  if (!HAS_ANY.test(text)) return text;
  return text.replace(SHOWN_NOT_OBEYED, (char) => {
    const code = char.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
