// `--output NAME=URL` and the suite's `load.outputs` entries, read once: the kind known, the URL an
// http(s) one. Errors are words for the caller to place (the flag, or the suite's file and line).
import { headerListSecrets, shownUrl, urlSecrets } from '../client/redact.js';
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
    return { error: `${name}: expected an http(s) URL (${EXAMPLE}), got "${shownUrl(url)}"` };
  }
  return { spec: { kind: name as OutputKind, url } };
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

/**
 * The credentials the outputs send, for the run's one redactor: each URL's user and password
 * (remote write's and OTLP's basic auth) and, with an OTLP output, the headers the exporter reads
 * from the environment. A receiver that echoes one must not put it in a report.
 */
export function outputSecrets(specs: readonly OutputSpec[], env: Readonly<Record<string, string | undefined>>): string[] {
  const otlp = specs.some((s) => s.kind === 'otlp') ? [...headerListSecrets(env.OTEL_EXPORTER_OTLP_HEADERS), ...headerListSecrets(env.OTEL_EXPORTER_OTLP_METRICS_HEADERS)] : [];
  return [...specs.flatMap((s) => urlSecrets(s.url)), ...otlp];
}
