// The one redactor: keeps secrets (the API key) out of every value that came from outside (answer
// text, error bodies, echoed headers) before it is kept or printed. It is applied to values, never to
// a serialised line: replacing text inside JSON's structure would corrupt it.
export type Redactor = (text: string) => string;

export const REDACTED = '[redacted]';

/**
 * A secret shorter than this is not searched for: replacing `ok`, `1` or `model` wherever it occurs
 * would alter ordinary text (and a weak key is not worth hiding at that price). The caller warns once.
 */
export const MIN_REDACTED_SECRET_CHARS = 8;

/** The secrets too short to be redacted, so the caller can say so once. */
export function unredactableSecrets(secrets: readonly (string | undefined)[]): string[] {
  return secrets.filter((s): s is string => typeof s === 'string' && s !== '' && s.length < MIN_REDACTED_SECRET_CHARS);
}

/**
 * Every form the key may take in what a server sends back: raw (a header echoed back),
 * percent-encoded in either hex case (a URL echoed back), or escaped inside a JSON string, which
 * JSON.parse would turn back into the raw key (`\"`, `\/` as PHP writes it, `\u00e9`).
 */
function keyForms(apiKey: string): string[] {
  const percent = [encodeURIComponent(apiKey), new URLSearchParams({ k: apiKey }).toString().slice(2)];
  const lowerHex = percent.map((form) => form.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()));
  const json = JSON.stringify(apiKey).slice(1, -1);
  const asciiJson = json.replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const forms = [apiKey, ...percent, ...lowerHex, json, json.replace(/\//g, '\\/'), asciiJson];
  // Longest first, so a form that contains another is replaced whole.
  return [...new Set(forms)].filter((form) => form !== '').sort((a, b) => b.length - a.length);
}

/** One secret or several (a live key and the embedded service's); short or empty ones are skipped. */
export function createRedactor(secrets: string | readonly (string | undefined)[]): Redactor {
  const list = (typeof secrets === 'string' ? [secrets] : secrets).filter(
    (s): s is string => typeof s === 'string' && s.length >= MIN_REDACTED_SECRET_CHARS,
  );
  if (list.length === 0) return (text) => text;
  const forms = [...new Set(list.flatMap(keyForms))].sort((a, b) => b.length - a.length);
  // includes() first: almost every text holds no key, and a search is cheaper than a split.
  return (text) => forms.reduce((acc, form) => (acc.includes(form) ? acc.split(form).join(REDACTED) : acc), text);
}

/** A short, single-line excerpt of a body for an error message. */
export function excerpt(text: string, maxChars = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > maxChars ? `${flat.slice(0, maxChars)}…` : flat;
}
