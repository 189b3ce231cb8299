// Turning text into search terms: tokenising, dropping filler words and a light stemmer shared by index and query.

const STOP_WORDS = new Set(
  `a about above after again all also am an and any are as at be because been before being below
  between both but by can could did do does doing done down during each either else ever few for from
  further get gets got had has have having he her here hers him his how i if in into is it its itself
  just let me might mine more most much my myself no nor not now of off on once one only or other our
  ours out over own please same she should so some such tell than that the their theirs them then there
  these they this those through to too under until up us very was we were what when where which while
  who whom why will with would you your yours yourself know want need like`
    .split(/\s+/)
    .filter((word) => word.length > 0),
);

/** Lower-cased words and numbers; currency signs and punctuation separate terms. */
export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/['’]s\b/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token.length > 0);
}

export function isStopWord(token: string): boolean {
  return STOP_WORDS.has(token);
}

/**
 * A deliberately small stemmer: enough that "refunds", "refunded" and "refund" meet, without the
 * weight of Porter's algorithm. It only has to be consistent between indexing and querying.
 */
export function stem(token: string): string {
  let word = token;
  if (/^\p{N}+$/u.test(word) || word.length <= 3) return word;
  if (word.endsWith('ies') && word.length > 4) word = `${word.slice(0, -3)}y`;
  else if (/(ss|x|ch|sh)es$/.test(word)) word = word.slice(0, -2);
  else if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) word = word.slice(0, -1);
  if (word.endsWith('ing') && word.length > 5) word = word.slice(0, -3);
  else if (word.endsWith('ed') && !word.endsWith('eed') && word.length > 4) word = word.slice(0, -2);
  if (word.endsWith('ation') && word.length > 7) word = word.slice(0, -3);
  else if (word.endsWith('ption') && word.length > 7) word = word.slice(0, -3);
  else if (word.endsWith('e') && word.length > 4) word = word.slice(0, -1);
  return word;
}

/** A single token as the index stores it, or null when it carries no meaning (a stop word). */
export function toTerm(token: string): string | null {
  const lower = token.toLowerCase();
  if (isStopWord(lower)) return null;
  return stem(lower);
}

/** The meaningful terms of a text, in order, duplicates kept. */
export function contentTerms(text: string): string[] {
  const terms: string[] = [];
  for (const token of tokenize(text)) {
    const term = toTerm(token);
    if (term !== null) terms.push(term);
  }
  return terms;
}
