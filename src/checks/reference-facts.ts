// The facts a `similar` check requires: numbers, dates, times, amounts and named terms of the reference, and whether an answer states them.

/**
 * `value` is comparable across wordings: durations in seconds ("72 hours" = "3 days"), times in
 * minutes after midnight, dates as `MM-DD` with the year apart. `unit` groups what may contradict
 * what: "48 hours" contradicts "72 hours" (both `duration`), "24/7" does not.
 */
export interface Fact {
  kind: 'number' | 'amount' | 'date' | 'time' | 'term';
  /** As the text wrote it, for messages. */
  text: string;
  unit: string | null;
  value: string;
  /** Dates only: the year when written. */
  year?: string;
}

export interface FactVerdict {
  fact: Fact;
  status: 'found' | 'absent' | 'contradicted';
  /** Contradicted: what the answer says instead. */
  instead?: string;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const SECONDS: Record<string, number> = {
  s: 1, sec: 1, secs: 1, second: 1, seconds: 1,
  min: 60, mins: 60, minute: 60, minutes: 60,
  h: 3600, hr: 3600, hrs: 3600, hour: 3600, hours: 3600,
  d: 86400, day: 86400, days: 86400,
  wk: 604800, week: 604800, weeks: 604800,
};
const CURRENCIES: Record<string, string> = {
  '€': 'EUR', eur: 'EUR', euro: 'EUR', euros: 'EUR', '$': 'USD', usd: 'USD', dollar: 'USD', dollars: 'USD',
  '£': 'GBP', gbp: 'GBP', pound: 'GBP', pounds: 'GBP', chf: 'CHF', francs: 'CHF', '¥': 'JPY', jpy: 'JPY', yen: 'JPY',
};
const UNITS_OF_MEASURE = new Set([...Object.keys(SECONDS), ...Object.keys(CURRENCIES), '%', 'percent']);
const SMALL = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
/** Words after a number that are not its unit. */
const NOT_UNITS = new Set('a an the and or of to in on at by for from with as is are was were be it its this that per than'.split(' '));

/** Lower-case, accent-free, hyphens and runs of spaces as one space: the form terms are matched in. */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/['’]/g, '').replace(/[\s\-‐‑–]+/g, ' ');
}

/** "1,000" → "1000", "4,99" → "4.99", "4.50" → "4.5": one spelling per number. */
function numberValue(raw: string): string {
  let text = raw;
  if (/^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(text)) text = text.replace(/,/g, '');
  else if (/^\d+,\d{1,2}$/.test(text)) text = text.replace(',', '.');
  const n = Number(text);
  return Number.isFinite(n) ? String(n) : raw;
}

function wordNumber(word: string): number | null {
  const w = word.toLowerCase();
  const small = SMALL.indexOf(w);
  if (small >= 0) return small;
  const [tens, ones] = w.split(/[-\s]/);
  const t = TENS.indexOf(tens ?? '');
  if (t < 2) return null;
  if (ones === undefined) return t * 10;
  const o = SMALL.indexOf(ones);
  return o >= 1 && o <= 9 ? t * 10 + o : null;
}

const TAKEN = '\u001f';

const NUMBER_WORD = `(?:(?:${TENS.slice(2).join('|')})(?:[- ](?:${SMALL.slice(1, 10).join('|')}))?|${SMALL.join('|')})`;

/**
 * Blanks what a pattern matched so that later patterns do not read it again (the date's "12" is no
 * number). The fill is not a space, so that names on either side stay apart ("SOC" and "II" around
 * a taken "2 Type" are not one name "SOC II").
 */
function take(text: string, pattern: RegExp, each: (m: RegExpExecArray) => void, fill = TAKEN): string {
  return text.replace(pattern, (...args) => {
    const match = args.slice(0, -2) as unknown as RegExpExecArray;
    match.index = args[args.length - 2] as number;
    each(match);
    return fill.repeat((args[0] as string).length);
  });
}

function monthNumber(name: string): string {
  return String(MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1).padStart(2, '0');
}

function unitOf(word: string | undefined): { unit: string | null; scale: number } {
  if (word === undefined) return { unit: null, scale: 1 };
  const w = word.toLowerCase();
  if (SECONDS[w] !== undefined) return { unit: 'duration', scale: SECONDS[w] };
  if (w === '%' || w === 'percent') return { unit: '%', scale: 1 };
  if (CURRENCIES[w] !== undefined) return { unit: CURRENCIES[w], scale: 1 };
  if (NOT_UNITS.has(w) || !/^\p{L}+$/u.test(w)) return { unit: null, scale: 1 };
  return { unit: w.replace(/s$/, ''), scale: 1 };
}

function scaled(value: string, scale: number): string {
  return scale === 1 ? value : String(Number(value) * scale);
}

/**
 * The facts of a text, in the order dates, times, amounts, numbers, terms (each pass blanks what
 * it took). `wordsAsNumbers`: in an answer "seventy-two hours" states 72 hours; in a reference a
 * number word is a fact only before a unit of measure ("three days", not "one code").
 */
export function extractFacts(source: string, wordsAsNumbers: 'all' | 'measures', withTerms = true): Fact[] {
  const facts: Fact[] = [];
  // A numbered list's "1." is layout, not a fact.
  let text = take(source.normalize('NFKC'), /^[ \t]*\d{1,2}[.)](?=\s)/gm, () => undefined, ' ');
  const date = (m: RegExpExecArray, month: string, day: string, year: string | undefined): void => {
    facts.push({ kind: 'date', text: m[0].trim(), unit: 'date', value: `${month}-${day.padStart(2, '0')}`, ...(year ? { year } : {}) });
  };
  text = take(text, /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g, (m) => date(m, m[2]!.padStart(2, '0'), m[3]!, m[1]));
  text = take(text, new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH}\\b(?:,?\\s+(\\d{4})\\b)?`, 'gi'), (m) => date(m, monthNumber(m[2]!), m[1]!, m[3]));
  text = take(text, new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s+(\\d{4})\\b)?`, 'gi'), (m) => date(m, monthNumber(m[1]!), m[2]!, m[3]));
  const time = (m: RegExpExecArray, hour: number, minute: number): void => {
    facts.push({ kind: 'time', text: m[0].trim(), unit: 'time', value: String(hour * 60 + minute) });
  };
  text = take(text, /\b(\d{1,2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)(?!\p{L})/giu, (m) => {
    const pm = m[3]!.toLowerCase().startsWith('p');
    time(m, (Number(m[1]) % 12) + (pm ? 12 : 0), Number(m[2] ?? 0));
  });
  text = take(text, /\b(\d{1,2}):(\d{2})\b/g, (m) => time(m, Number(m[1]), Number(m[2])));
  text = take(text, /([€$£¥])\s?(\d+(?:[.,]\d+)*)|\b(eur|usd|gbp|chf|jpy)\s?(\d+(?:[.,]\d+)*)/gi, (m) => {
    facts.push({ kind: 'amount', text: m[0].trim(), unit: CURRENCIES[(m[1] ?? m[3]!).toLowerCase()]!, value: numberValue(m[2] ?? m[4]!) });
  });
  // Product codes (PX-200, S3) are names, not numbers.
  text = take(text, /\b[A-Za-z]+[-_]?\d+[A-Za-z0-9-]*\b/g, (m) => {
    if (/^\d/.test(m[0])) return;
    facts.push({ kind: 'term', text: m[0], unit: null, value: foldText(m[0]) });
  });
  text = take(text, /(\d+(?:[.,]\d+)*)(?:\s?(%)|[\s-]?(\p{L}+))?/gu, (m) => {
    const { unit, scale } = unitOf(m[2] ?? m[3]);
    const kind = unit !== null && /^[A-Z]{3}$/.test(unit) ? 'amount' : 'number';
    // Without a unit, the next word ("2.3 of") is not part of the fact's name.
    facts.push({ kind, text: unit === null ? m[1]! : m[0].trim(), unit, value: scaled(numberValue(m[1]!), scale) });
  });
  text = take(text, new RegExp(`\\b(${NUMBER_WORD})\\b(?:[\\s-](\\p{L}+))?`, 'giu'), (m) => {
    const { unit, scale } = unitOf(m[2]);
    if (wordsAsNumbers === 'measures' && !UNITS_OF_MEASURE.has((m[2] ?? '').toLowerCase())) return;
    const n = wordNumber(m[1]!);
    if (n !== null) facts.push({ kind: unit !== null && /^[A-Z]{3}$/.test(unit) ? 'amount' : 'number', text: unit === null ? m[1]! : m[0].trim(), unit, value: scaled(String(n), scale) });
  });
  if (withTerms) facts.push(...namedTerms(text));
  return dedupe(facts);
}

/**
 * Names: CamelCase words (ParcelPoint), acronyms (SMS, QR), quoted terms, and runs of capitalised
 * words that do not begin a sentence, a line or a list item ("the Help Center").
 */
function namedTerms(text: string): Fact[] {
  const terms: Fact[] = [];
  const add = (raw: string): void => {
    const term = raw.trim();
    if (term.length > 1) terms.push({ kind: 'term', text: term, unit: null, value: foldText(term) });
  };
  const rest = take(text, /["“«`]([^"”»`\n]{2,40})["”»`]/g, (m) => {
    if (m[1]!.trim().split(/\s+/).length <= 4) add(m[1]!);
  });
  const capitalised = /\p{Lu}[\p{L}\p{N}]*(?:[ \t]+\p{Lu}[\p{L}\p{N}]*)*/gu;
  for (let m = capitalised.exec(rest); m !== null; m = capitalised.exec(rest)) {
    const words = m[0].split(/[ \t]+/);
    const sentenceStart = beginsSentence(rest, m.index);
    // A sentence's first word is capitalised anyway: it names something only when it looks like a name.
    const kept = sentenceStart && !looksLikeName(words[0]!) ? words.slice(1) : words;
    if (kept.length === 0 || (kept.length === 1 && kept[0] === 'I')) continue;
    add(kept.join(' '));
  }
  return terms;
}

/** The text before `index`, spaces, quotes and brackets skipped, ends a sentence, a line or a list marker (or is empty). */
function beginsSentence(text: string, index: number): boolean {
  let i = index - 1;
  while (i >= 0 && /[ \t"“(]/.test(text[i]!)) i--;
  if (i < 0) return true;
  return /[.!?:;\n\-*•>#)]/.test(text[i]!);
}

function looksLikeName(word: string): boolean {
  return /^\p{Lu}{2,}\p{N}*$/u.test(word) || /\p{Ll}\p{Lu}/u.test(word);
}

function dedupe(facts: Fact[]): Fact[] {
  const seen = new Set<string>();
  return facts.filter((f) => {
    const key = `${f.kind}|${f.unit}|${f.value}|${f.year ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function states(answer: Fact, fact: Fact): boolean {
  if (fact.kind === 'term') return false;
  if (answer.value !== fact.value) return false;
  if (fact.kind === 'date') return answer.kind === 'date' && (answer.year === undefined || fact.year === undefined || answer.year === fact.year);
  // A bare number states a measured one ("72" answers "72 hours"); different units do not.
  return answer.unit === fact.unit || answer.unit === null || (fact.unit === null && answer.kind === 'number');
}

/** Whether the answer states each reference fact, and what it says instead when it contradicts one. */
export function judgeFacts(referenceFacts: readonly Fact[], answerText: string): FactVerdict[] {
  const answerFacts = extractFacts(answerText, 'all', false);
  const folded = ` ${foldText(answerText).replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
  return referenceFacts.map((fact): FactVerdict => {
    if (fact.kind === 'term') {
      const words = fact.value.replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
      return { fact, status: folded.includes(` ${words} `) ? 'found' : 'absent' };
    }
    if (answerFacts.some((a) => states(a, fact))) return { fact, status: 'found' };
    // Another currency contradicts an amount as another figure does.
    const other = answerFacts.find((a) => a.kind !== 'term' && fact.unit !== null && (a.unit === fact.unit || (a.kind === 'amount' && fact.kind === 'amount')));
    return other ? { fact, status: 'contradicted', instead: other.text } : { fact, status: 'absent' };
  });
}
