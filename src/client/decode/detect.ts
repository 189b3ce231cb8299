// Decides how to decode a response: from the forced dialect, the headers, then the first bytes.
import type { StreamDialect } from '../../protocol/index.js';
import { stripBom } from './events.js';

/** 'sse' leaves ui-sse vs openai-sse to the first payload; 'json' is a whole (non-stream) body. */
export type DecodePlan = StreamDialect | 'sse' | 'json' | 'json-or-text';

export interface ResponseShape {
  contentType: string | null;
  /** Lower-cased header names → values, as undici gives them. */
  headers: Record<string, string | string[] | undefined>;
  streamingRequested: boolean;
  dialect: 'auto' | StreamDialect;
}

const NDJSON_TYPES = new Set(['application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/x-jsonlines', 'application/jsonlines']);

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/** How far sniffing waits for the end of the first line before settling for what it has. */
export const SNIFF_LIMIT_CHARS = 64 * 1024;

let lastContentType: string | null = null;
let lastMediaType = '';

/** `text/event-stream; charset=utf-8` → `text/event-stream`; a service sends the same header every time, so the last one is kept. */
export function mediaType(contentType: string | null): string {
  if (contentType === lastContentType) return lastMediaType;
  lastContentType = contentType;
  lastMediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return lastMediaType;
}

/** A plan from the headers alone, or 'sniff' when the first bytes must decide. */
export function planFromHeaders(shape: ResponseShape): DecodePlan | 'sniff' | 'sniff-json' {
  const type = mediaType(shape.contentType);
  // A web page is never an answer (a base URL that points at a website, a login or error page);
  // read whole as the JSON answer it is not, it fails as a malformed body instead of passing as text.
  if (HTML_TYPES.has(type)) return 'json';
  if (shape.dialect !== 'auto' && shape.streamingRequested) return shape.dialect;
  if (type === 'text/event-stream') return 'sse';
  if (NDJSON_TYPES.has(type)) return 'ndjson';
  if (shape.headers['x-vercel-ai-data-stream'] !== undefined) return 'data-stream';
  if (shape.headers['x-vercel-ai-ui-message-stream'] !== undefined) return 'ui-sse';
  // Without streaming, the interface promises JSON: anything else is a malformed body, not text.
  if (!shape.streamingRequested) return 'json';
  return type === 'application/json' || type.endsWith('+json') ? 'sniff-json' : 'sniff';
}

const SSE_FIELDS = ['data:', 'event:', 'id:', 'retry:'];
const DATA_STREAM_START = /^[0-9a-z]:/;
/** The start of a long data-stream part: a type code and a JSON string, object or array. */
const DATA_STREAM_PART_START = /^[0-9a-z]:\s*["{[]/;
/** The start of a long NDJSON line that is a UI chunk (`{"type":…`) or an OpenAI chunk (`{"id":…`, `{"choices":…`). */
const CHUNK_LINE_START = /^\{\s*"(type|choices|id|object)"\s*:/;

/**
 * Looks at the start of a streamed body. Returns null while the prefix is still ambiguous
 * (decides as early as it can: waiting would delay the first chunk of a plain-text answer).
 */
export function sniffPlan(prefix: string, ended: boolean, jsonContentType: boolean): DecodePlan | null {
  const body = stripBom(prefix);
  const lineStart = body.search(/[^\r\n]/);
  if (lineStart === -1) return ended ? (jsonContentType ? 'json' : 'text') : null;
  const head = body.slice(lineStart);
  const lineEnd = head.search(/[\r\n]/);
  const line = lineEnd === -1 ? head : head.slice(0, lineEnd);
  const lineComplete = lineEnd !== -1 || ended || head.length >= SNIFF_LIMIT_CHARS;

  if (head.startsWith(':') || SSE_FIELDS.some((field) => head.startsWith(field))) return 'sse';
  if (!lineComplete && SSE_FIELDS.some((field) => field.startsWith(head))) return null;
  const trimmed = line.trimStart();
  // Past the window the line's end is not awaited: a very long first line (one huge delta) is
  // judged by how it starts, as a framed dialect's first line starts in a telling way.
  const truncated = lineEnd === -1 && !ended && head.length >= SNIFF_LIMIT_CHARS;
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    if (!lineComplete) return null;
    if (truncated ? CHUNK_LINE_START.test(trimmed) : isUiChunkLine(trimmed)) return 'ndjson';
    return jsonContentType ? 'json' : 'json-or-text';
  }
  if (jsonContentType) return 'json';
  if (DATA_STREAM_START.test(head)) {
    if (!lineComplete) return null;
    // Every data-stream part carries a JSON string, object or array; `1: 42` is a list, not a part.
    if (!DATA_STREAM_PART_START.test(line)) return 'text';
    return truncated || parses(line.slice(2)) ? 'data-stream' : 'text';
  }
  if (!lineComplete && /^[0-9a-z]$/.test(head)) return null;
  return 'text';
}

function isUiChunkLine(line: string): boolean {
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const record = value as Record<string, unknown>;
    return typeof record.type === 'string' || Array.isArray(record.choices);
  } catch {
    return false;
  }
}

function parses(raw: string): boolean {
  try {
    JSON.parse(raw);
    return true;
  } catch {
    return false;
  }
}
