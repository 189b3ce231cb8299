// An OpenAI-compatible embeddings endpoint (POST {base_url}/embeddings): vectors for the `similar` check.
import { z } from 'zod';
import { MAX_REPLY_BYTES, readCappedText } from './capped-body.js';

export interface EmbeddingsEndpoint {
  /** As OpenAI clients take it, with the version: `https://api.openai.com/v1`, `http://127.0.0.1:8080/v1`. */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer …`; never in a message. */
  apiKey?: string;
  timeoutMs: number;
}

const reply = z.object({
  data: z.array(z.object({ embedding: z.array(z.number()), index: z.number().int().nonnegative().optional() })),
});

/**
 * Embedding models take a few thousand tokens; a longer text is cut here (about 8k tokens of
 * English) rather than refused by the endpoint. The opening of an answer carries its meaning.
 */
export const MAX_EMBEDDED_CHARS = 30_000;

export function embeddingsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/embeddings`;
}

/** One vector per text, in the texts' order. Throws an Error saying what went wrong (status, shape), never the key. */
export async function fetchEmbeddings(endpoint: EmbeddingsEndpoint, texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
  const timeout = endpoint.timeoutMs > 0 ? AbortSignal.timeout(endpoint.timeoutMs) : undefined;
  const signals = [signal, timeout].filter((s): s is AbortSignal => s !== undefined);
  let response: Response;
  try {
    response = await fetch(embeddingsUrl(endpoint.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}) },
      body: JSON.stringify({ model: endpoint.model, input: texts.map((t) => t.slice(0, MAX_EMBEDDED_CHARS) || ' ') }),
      ...(signals.length > 0 ? { signal: AbortSignal.any(signals) } : {}),
    });
  } catch (error) {
    const cause = (error as Error).name === 'TimeoutError' ? `no answer within ${endpoint.timeoutMs} ms` : ((error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name);
    throw new Error(`embeddings request to ${embeddingsUrl(endpoint.baseUrl)} failed (${cause})`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`embeddings endpoint ${embeddingsUrl(endpoint.baseUrl)} answered HTTP ${response.status}`);
  }
  const text = await readCappedText(response, MAX_REPLY_BYTES, `embeddings endpoint ${embeddingsUrl(endpoint.baseUrl)}`);
  const parsed = reply.safeParse(jsonOrNull(text));
  if (!parsed.success || parsed.data.data.length !== texts.length) {
    throw new Error(`embeddings endpoint ${embeddingsUrl(endpoint.baseUrl)} did not answer { data: [{ embedding }] } for ${texts.length} inputs`);
  }
  const rows = parsed.data.data.map((row, i) => ({ index: row.index ?? i, embedding: row.embedding }));
  rows.sort((a, b) => a.index - b.index);
  return rows.map((row) => row.embedding);
}

function jsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
