// Test support: encodes a list of text deltas in each stream dialect, the way a server would.
import type { StreamDialect } from '../../protocol/index.js';

export interface EncodeOptions {
  /** Line terminator between SSE/NDJSON/data-stream lines. */
  eol?: '\n' | '\r\n' | '\r';
  /** SSE only: `: ping` comments and blank keep-alive lines between events. */
  keepAlive?: boolean;
  /** SSE only: spread each JSON payload over several `data:` lines. */
  multiLineData?: boolean;
  finish?: boolean;
  usage?: { credits_used: number; credits_remaining?: number };
}

export function encodeDialect(dialect: StreamDialect, deltas: string[], options: EncodeOptions = {}): string {
  switch (dialect) {
    case 'ui-sse':
      return encodeUiSse(deltas, options);
    case 'openai-sse':
      return encodeOpenAiSse(deltas, options);
    case 'data-stream':
      return encodeDataStream(deltas, options);
    case 'ndjson':
      return encodeNdjson(deltas, options);
    case 'text':
      return deltas.join('');
  }
}

function sseEvent(payload: unknown, options: EncodeOptions): string {
  const eol = options.eol ?? '\n';
  const json = options.multiLineData ? JSON.stringify(payload, null, 1) : JSON.stringify(payload);
  const lines = json.split('\n').map((line) => `data: ${line}`);
  const ping = options.keepAlive ? `: ping${eol}${eol}` : '';
  return `${ping}${lines.join(eol)}${eol}${eol}`;
}

export function encodeUiSse(deltas: string[], options: EncodeOptions = {}): string {
  const eol = options.eol ?? '\n';
  const events: unknown[] = [{ type: 'start', messageId: 'msg-1' }, { type: 'text-start', id: 't1' }];
  for (const delta of deltas) events.push({ type: 'text-delta', id: 't1', delta });
  events.push({ type: 'text-end', id: 't1' });
  if (options.finish !== false) events.push({ type: 'finish' });
  if (options.usage) events.push({ type: 'usage', ...options.usage });
  return events.map((event) => sseEvent(event, options)).join('') + `data: [DONE]${eol}${eol}`;
}

export function encodeOpenAiSse(deltas: string[], options: EncodeOptions = {}): string {
  const eol = options.eol ?? '\n';
  const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'gpt-4o' };
  const events: unknown[] = [{ ...base, choices: [{ index: 0, delta: { role: 'assistant' }, finish_reason: null }] }];
  for (const content of deltas) events.push({ ...base, choices: [{ index: 0, delta: { content }, finish_reason: null }] });
  if (options.finish !== false) events.push({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
  if (options.usage) events.push({ type: 'usage', ...options.usage });
  return events.map((event) => sseEvent(event, options)).join('') + `data: [DONE]${eol}${eol}`;
}

export function encodeDataStream(deltas: string[], options: EncodeOptions = {}): string {
  const eol = options.eol ?? '\n';
  const lines = ['f:{"messageId":"msg-1"}'];
  for (const delta of deltas) lines.push(`0:${JSON.stringify(delta)}`);
  if (options.finish !== false) {
    lines.push('e:{"finishReason":"stop","usage":{"promptTokens":1,"completionTokens":2},"isContinued":false}');
    lines.push('d:{"finishReason":"stop","usage":{"promptTokens":1,"completionTokens":2}}');
  }
  if (options.usage) lines.push(`2:${JSON.stringify([{ type: 'usage', ...options.usage }])}`);
  return lines.map((line) => line + eol).join('');
}

export function encodeNdjson(deltas: string[], options: EncodeOptions = {}): string {
  const eol = options.eol ?? '\n';
  const events: unknown[] = [{ type: 'start' }];
  for (const delta of deltas) events.push({ type: 'text-delta', id: 't1', delta });
  if (options.finish !== false) events.push({ type: 'finish', finishReason: 'stop' });
  if (options.usage) events.push({ type: 'usage', ...options.usage });
  return events.map((event) => JSON.stringify(event) + eol).join('');
}

/** Splits bytes at cut points given as fractions of the length (any order, duplicates allowed). */
export function splitBytes(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const at = (cut: number): number => Math.min(bytes.length, Math.max(0, Math.floor(cut * bytes.length)));
  const points = [...new Set(cuts.map(at))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    pieces.push(bytes.subarray(start, point));
    start = point;
  }
  return pieces;
}
