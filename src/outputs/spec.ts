// `--output NAME=URL` and the suite's `load.outputs` entries, read once: the kind known, the URL an
// http(s) one. Errors are words for the caller to place (the flag, or the suite's file and line).
import { OUTPUT_KINDS, type OutputKind, type OutputSpec } from '../domain/output.js';

export type OutputSpecResult = { spec: OutputSpec } | { error: string };

const EXAMPLE = 'e.g. prometheus-rw=http://127.0.0.1:9090/api/v1/write';

export function parseOutputSpec(text: string): OutputSpecResult {
  const at = text.indexOf('=');
  if (at <= 0) return { error: `expected NAME=URL (${EXAMPLE}), got "${text}"` };
  const name = text.slice(0, at).trim();
  const url = text.slice(at + 1).trim();
  if (!(OUTPUT_KINDS as readonly string[]).includes(name)) {
    return { error: `unknown output "${name}": expected one of ${OUTPUT_KINDS.join(', ')} (${EXAMPLE})` };
  }
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    return { error: `${name}: expected an http(s) URL (${EXAMPLE}), got "${redactedText(url)}"` };
  }
  return { spec: { kind: name as OutputKind, url } };
}

/** A URL as words may show it: a password in it never printed. */
function redactedText(url: string): string {
  return url.replace(/\/\/[^/@]*@/, '//***@');
}

/** run.json's form of the outputs: the URLs without user or password (the spec keeps them to send). */
export function recordableOutputs(specs: readonly OutputSpec[]): OutputSpec[] {
  return specs.map((s) => {
    if (!URL.canParse(s.url)) return s;
    const url = new URL(s.url);
    url.username = '';
    url.password = '';
    return { kind: s.kind, url: url.href };
  });
}
