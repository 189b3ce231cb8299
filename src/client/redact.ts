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

/**
 * The credentials a URL carries in its userinfo (`http://user:secret@host`), in every form a
 * receiver may echo: the password alone, `user:password` (a decoded Authorization header), and
 * the Basic token. Empty when it carries none.
 */
export function urlSecrets(text: string): string[] {
  if (!URL.canParse(text)) return [];
  const url = new URL(text);
  if (url.username === '' && url.password === '') return [];
  const user = safeDecode(url.username);
  const password = safeDecode(url.password);
  const pair = `${user}:${password}`;
  return [password, url.password, pair, Buffer.from(pair).toString('base64')].filter((s) => s !== '');
}

/**
 * The values of a `key=value,key=value` header list (OTEL_EXPORTER_OTLP_HEADERS: values
 * percent-encoded), and the token after a scheme (`Basic …`, `Bearer …`) and what a Basic token
 * decodes to. A receiver that echoes a header echoes one of these.
 */
export function headerListSecrets(list: string | undefined): string[] {
  if (list === undefined) return [];
  const secrets: string[] = [];
  for (const entry of list.split(',')) {
    const at = entry.indexOf('=');
    if (at < 0) continue;
    const value = safeDecode(entry.slice(at + 1).trim());
    secrets.push(value, entry.slice(at + 1).trim());
    const token = /^(basic|bearer)\s+(\S+)$/i.exec(value);
    if (token) {
      secrets.push(token[2]!);
      if (token[1]!.toLowerCase() === 'basic') {
        const pair = Buffer.from(token[2]!, 'base64').toString('utf8');
        secrets.push(pair, pair.slice(pair.indexOf(':') + 1));
      }
    }
  }
  return secrets.filter((s) => s !== '');
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A URL as words may show it: its user and password (up to the last `@` before the path) as `***`. */
export function shownUrl(text: string): string {
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1***@');
}

/**
 * Why a text is no endpoint URL kbbench sends to (a grader's, an embeddings endpoint's), in words
 * that never show a password; null when it is one: http(s), without a user or password (the key
 * goes in a header, from the environment or a key file, as the service's does).
 */
export function endpointUrlProblem(text: string, example: string): string | null {
  const shown = shownUrl(text);
  if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol)) return `expected an http(s) URL such as ${example}, got "${shown}"`;
  const url = new URL(text);
  if (url.username !== '' || url.password !== '') return `"${shown}" carries a user or password: give the URL without it, and the key in the environment or a key file`;
  return null;
}
