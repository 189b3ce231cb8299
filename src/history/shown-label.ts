// A run's --label as pages and the console show it: cut, since a label may be any length (a 200 KB
// one in every chart point's title made a 38 MB history.html). history.json keeps it whole.

/** Characters of a label shown at most, hover titles included. */
export const MAX_SHOWN_LABEL_CHARS = 200;

/** The label cut to MAX_SHOWN_LABEL_CHARS with an ellipsis; a surrogate pair is never split. */
export function shownLabel(label: string): string {
  if (label.length <= MAX_SHOWN_LABEL_CHARS) return label;
  const end = /[\uD800-\uDBFF]/.test(label[MAX_SHOWN_LABEL_CHARS - 1]!) ? MAX_SHOWN_LABEL_CHARS - 1 : MAX_SHOWN_LABEL_CHARS;
  return `${label.slice(0, end)}…`;
}
