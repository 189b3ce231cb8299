// A grader behind any OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, Ollama, LiteLLM…).
// Its key comes from KBBENCH_GRADER_API_KEY or --grader-key-file and is redacted from every message.
import { MAX_ERROR_BODY_BYTES, MAX_REPLY_BYTES, readCappedText } from '../client/capped-body.js';
import { createRedactor, excerpt } from '../client/redact.js';
import { ConnectionError, HttpError, InputError, RateLimitedError, ServerError, TimeoutError, UnauthorizedError } from '../domain/errors.js';
import type { GraderSpec } from '../domain/suite.js';
import type { Grader } from './types.js';

export interface OpenAiGraderDeps {
  apiKey?: string;
  timeoutMs: number;
}

export function openAiGraderLabel(baseUrl: string, model: string): string {
  return `openai ${baseUrl} ${model}`;
}

function endpoint(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${path}`;
}

interface Completion {
  choices?: { message?: { content?: unknown } }[];
  usage?: { total_tokens?: unknown };
}

function jsonOr(text: string, fallback: unknown): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fallback;
  }
}

function retryAfterMs(header: string | null): number | undefined {
  const seconds = header === null ? Number.NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

export function openAiGrader(spec: Extract<GraderSpec, { kind: 'openai' }>, deps: OpenAiGraderDeps): Grader {
  const redact = createRedactor([deps.apiKey]);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(deps.apiKey ? { authorization: `Bearer ${deps.apiKey}` } : {}) };
  const call = async (url: string, init: RequestInit, signal: AbortSignal): Promise<Response> => {
    const timeout = deps.timeoutMs > 0 ? AbortSignal.timeout(deps.timeoutMs) : undefined;
    try {
      return await fetch(url, { ...init, headers, signal: timeout ? AbortSignal.any([signal, timeout]) : signal });
    } catch (error) {
      if (timeout?.aborted && !signal.aborted) throw new TimeoutError(`the grader endpoint did not answer within ${deps.timeoutMs} ms`, 'body');
      if (signal.aborted) throw error;
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      throw new ConnectionError(`the grader endpoint ${spec.base_url} is unreachable (${redact(cause ?? (error as Error).message)})`, cause);
    }
  };
  const failure = async (response: Response, what: string): Promise<HttpError> => {
    const body = redact(excerpt(await readCappedText(response, MAX_ERROR_BODY_BYTES, 'the grader endpoint', true).catch(() => '')));
    const message = `${what}: HTTP ${response.status}${body ? ` ${body}` : ''}`;
    // The service's error classes, so the one retry path retries a 429 or a 5xx of the grader too.
    if (response.status === 401 || response.status === 403) return new UnauthorizedError(message, response.status, body);
    if (response.status === 429) return new RateLimitedError(message, response.status, body, retryAfterMs(response.headers.get('retry-after')));
    if (response.status >= 500) return new ServerError(message, response.status, body);
    return new HttpError(message, response.status, body);
  };
  return {
    kind: 'openai',
    label: openAiGraderLabel(spec.base_url, spec.model),
    model: spec.model,
    withModel: (model) => openAiGrader({ ...spec, model }, deps),
    ask: async (prompt, signal) => {
      const body = JSON.stringify({ model: spec.model, messages: [{ role: 'user', content: prompt }], temperature: 0 });
      const response = await call(endpoint(spec.base_url, 'chat/completions'), { method: 'POST', body }, signal);
      if (!response.ok) throw await failure(response, 'the grader endpoint refused');
      const completion = jsonOr(await readCappedText(response, MAX_REPLY_BYTES, 'the grader endpoint'), {}) as Completion;
      const content = completion.choices?.[0]?.message?.content;
      if (typeof content !== 'string') throw new Error('the grader endpoint answered without choices[0].message.content');
      const tokens = typeof completion.usage?.total_tokens === 'number' ? completion.usage.total_tokens : null;
      return { text: redact(content), credits_used: null, tokens };
    },
    preflight: async (signal) => {
      // GET /models answers on every OpenAI-compatible server we know; a 404 still proves it is there.
      const response = await call(endpoint(spec.base_url, 'models'), { method: 'GET' }, signal);
      if (response.status === 404 || response.status === 405) return;
      if (!response.ok) throw await failure(response, 'the grader endpoint refused GET /models');
      const listed = jsonOr(await readCappedText(response, MAX_REPLY_BYTES, 'the grader endpoint (GET /models)'), {}) as { data?: { id?: unknown }[] };
      const ids = (listed.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');
      if (ids.length > 0 && !ids.includes(spec.model)) {
        throw new InputError(`grader model ${spec.model} is not served by ${spec.base_url} (it lists ${ids.slice(0, 10).join(', ')})`, { ...(spec.location ?? {}), field: 'grader.openai.model' });
      }
    },
  };
}
