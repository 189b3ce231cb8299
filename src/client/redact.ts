// Keeps the API key out of every message and body excerpt the client produces.
export type Redactor = (text: string) => string;

export const REDACTED = '[redacted]';

export function createRedactor(apiKey: string): Redactor {
  if (apiKey === '') return (text) => text;
  // The key may appear raw (a header echoed back) or percent-encoded (a URL echoed back).
  const forms = [...new Set([apiKey, encodeURIComponent(apiKey), new URLSearchParams({ k: apiKey }).toString().slice(2)])]
    .sort((a, b) => b.length - a.length);
  return (text) => forms.reduce((acc, form) => acc.split(form).join(REDACTED), text);
}

/** A short, single-line excerpt of a body for an error message. */
export function excerpt(text: string, maxChars = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > maxChars ? `${flat.slice(0, maxChars)}…` : flat;
}
