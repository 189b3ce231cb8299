// A fetch Response's body read with a limit: an endpoint that streams gigabytes (a grader's reply,
// an embeddings reply, a receiver's error body) costs at most the limit, never the process's memory.
import { BodyTooLargeError } from '../domain/errors.js';

/** A reply kbbench parses whole (a grader's, an embeddings endpoint's): as the service client's limit. */
export const MAX_REPLY_BYTES = 64 * 1024 * 1024;
/** An error body kept only for its first words: as the OTLP exporter's limit. */
export const MAX_ERROR_BODY_BYTES = 4 * 1024 * 1024;

/**
 * The body as text, at most `maxBytes`: past it the body is cancelled (its socket freed) and a
 * BodyTooLargeError names `label`, or, with `cut`, the text so far is returned (an error body's
 * first words are all a message needs).
 */
export async function readCappedText(response: Response, maxBytes: number, label: string, cut = false): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (!cut && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(label, maxBytes);
  }
  if (response.body === null) return '';
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  let text = '';
  let bytes = 0;
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      bytes += next.value.byteLength;
      if (bytes > maxBytes) {
        if (!cut) throw tooLarge(label, maxBytes);
        text += decoder.decode(next.value.subarray(0, next.value.byteLength - (bytes - maxBytes)), { stream: true });
        break;
      }
      text += decoder.decode(next.value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text + decoder.decode();
}

function tooLarge(label: string, maxBytes: number): BodyTooLargeError {
  return new BodyTooLargeError(`${label} answered with a body over ${maxBytes / 1024 / 1024} MiB, the limit: it was not read`, maxBytes);
}
