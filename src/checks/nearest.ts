// Where a failed text check's answer comes closest to what was expected: the sentence holding the
// longest run of the expected text, every digit read as any digit (so "€350" is as near to "€300"
// as "€300" itself would be), so a failure line shows the part that disagrees instead of the
// answer's first words.

/** Only this much of an answer is searched: a detail must stay cheap when thousands of checks fail. */
const SCAN_CHARS = 20_000;
/** Only this much of the expected text is matched (a longer value's start locates it as well). */
const EXPECTED_CHARS = 120;
/** The most characters a nearest part shows: with its check's words it fits the console's 120-character line. */
const WINDOW_CHARS = 64;
/** In a longer sentence, how many characters before the run are kept (the rest of the window is after it). */
const BEFORE_RUN_CHARS = 24;
/** A shorter common run (a space, one letter) says nothing about where the answer disagrees. */
const MIN_RUN = 2;
/** A run of digits and spaces shorter than this (and than the value) is any number's. */
const DIGITS_ONLY_RUN = 6;
/** Nor does a run of less than half the expected text ("ro" of "pro rata"). */
const MIN_SHARE = 0.5;

/** The start in `text` and the length of the longest run both share; the earliest on a tie. */
function longestCommonRun(text: string, expected: string): { at: number; length: number } {
  const m = expected.length;
  let previous = new Uint16Array(m + 1);
  let current = new Uint16Array(m + 1);
  let best = { at: 0, length: 0 };
  for (let i = 1; i <= text.length; i++) {
    const c = text.charCodeAt(i - 1);
    for (let j = 1; j <= m; j++) {
      const run = c === expected.charCodeAt(j - 1) ? previous[j - 1]! + 1 : 0;
      current[j] = run;
      if (run > best.length) best = { at: i - run, length: run };
    }
    [previous, current] = [current, previous];
  }
  return best;
}

/**
 * Lower case with every digit as 0, one code unit for one so that positions stay those of the
 * answer (a character whose lower case is longer keeps its place).
 */
function shape(text: string): string {
  let out = '';
  for (const c of text) {
    const lower = c.toLowerCase();
    out += c >= '0' && c <= '9' ? '0' : lower.length === c.length ? lower : c;
  }
  return out;
}

/** The sentence around `at` (bounded by . ! ? or a line break), cut to WINDOW_CHARS around the run. */
function sentenceAround(text: string, at: number, length: number): { start: number; end: number } {
  let start = at;
  while (start > 0 && !/[.!?\n]/.test(text[start - 1]!)) start--;
  let end = at + length;
  while (end < text.length && !/[.!?\n]/.test(text[end]!)) end++;
  if (end < text.length) end++; // keep the full stop
  while (start < at && /\s/.test(text[start]!)) start++;
  // A long sentence: keep the run with some words before it and more after.
  if (end - start > WINDOW_CHARS) {
    start = Math.max(start, at - BEFORE_RUN_CHARS);
    end = Math.min(end, start + WINDOW_CHARS);
  }
  return { start, end };
}

/**
 * `"…The deposit for an e-bike is €350; for a city bike it is €100."`: the part of `answer`
 * nearest to `expected`, or undefined when they share no run of half the expected text.
 */
export function nearestPart(answer: string, expected: string): string | undefined {
  const text = answer.slice(0, SCAN_CHARS).replace(/[ \t\r\f\v]+/g, ' ');
  const wanted = shape(expected.slice(0, EXPECTED_CHARS).trim());
  const run = longestCommonRun(shape(text), wanted);
  if (run.length < Math.max(MIN_RUN, Math.ceil(wanted.length * MIN_SHARE))) return undefined;
  // A few digits match any number ("14" of "14-day" for "€79"): a short run shared only in digits
  // and spaces is no nearer than the answer's start (a long one, "1234 5678", is a figure).
  if (run.length < Math.min(wanted.length, DIGITS_ONLY_RUN) && !/[^0\s]/.test(shape(text.slice(run.at, run.at + run.length)))) return undefined;
  const { start, end } = sentenceAround(text, run.at, run.length);
  const body = text.slice(start, end).replace(/\s+/g, ' ').trim();
  const before = text.slice(0, start).trim() === '' ? '' : '…';
  const after = text.slice(end).trim() === '' && answer.length <= SCAN_CHARS ? '' : '…';
  return `"${before}${body}${after}"`;
}
