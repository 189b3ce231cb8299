// Keeps the API key out of every message and body excerpt the client produces.
export type Redactor = (text: string) => string;

export const REDACTED = '[redacted]';

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

export function createRedactor(apiKey: string): Redactor {
  if (apiKey === '') return (text) => text;
  const forms = keyForms(apiKey);
  // includes() first: almost every text holds no key, and a search is cheaper than a split.
  return (text) => forms.reduce((acc, form) => (acc.includes(form) ? acc.split(form).join(REDACTED) : acc), text);
}

/** A short, single-line excerpt of a body for an error message. */
export function excerpt(text: string, maxChars = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > maxChars ? `${flat.slice(0, maxChars)}…` : flat;
}
