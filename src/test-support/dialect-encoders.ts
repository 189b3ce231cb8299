// Test support: encodes a list of text deltas in each stream dialect, the way a server would.
import type { StreamDialect } from '../protocol/index.js';

export interface EncodeOptions {
  /** Line terminator between SSE/NDJSON/data-stream lines. */
  eol?: '\n' | '\r\n' | '\r';
  /** SSE only: `: ping` comments and blank keep-alive lines between events. */
  keepAlive?: boolean;
  /** SSE only: spread each JSON payload over several `data:` lines. */
  multiLineData?: boolean;
  /** SSE only: `event:`, `id:` and `retry:` fields beside the data, and `data:` without its space. */
  sseFields?: boolean;
  finish?: boolean;
  usage?: { credits_used: number; credits_remaining?: number };
  /** The usage chunk comes before the finish event instead of after it. */
  usageFirst?: boolean;
  /** Framed dialects: the body starts with a UTF-8 byte-order mark. */
  bom?: boolean;
  /** SSE: `data: [DONE]` closes the stream (default); NDJSON: a `[DONE]` line does. */
  done?: boolean;
  /** No preamble (start, text-start, f:, role chunk): the first line is the first delta. */
  bare?: boolean;
}

export function encodeDialect(dialect: StreamDialect, deltas: string[], options: EncodeOptions = {}): string {
  const bom = options.bom === true && dialect !== 'text' ? '\uFEFF' : '';
  switch (dialect) {
    case 'ui-sse':
      return bom + encodeUiSse(deltas, options);
    case 'openai-sse':
      return bom + encodeOpenAiSse(deltas, options);
    case 'data-stream':
      return bom + encodeDataStream(deltas, options);
    case 'ndjson':
      return bom + encodeNdjson(deltas, options);
    case 'text':
      return deltas.join('');
  }
}

/** The closing events in the order the options ask for: finish and usage, either way round. */
function closing(finish: unknown[], usage: unknown[], options: EncodeOptions): unknown[] {
  const finishEvents = options.finish === false ? [] : finish;
  const usageEvents = options.usage ? usage : [];
  return options.usageFirst ? [...usageEvents, ...finishEvents] : [...finishEvents, ...usageEvents];
}

function sseEvent(payload: unknown, options: EncodeOptions, index: number): string {
  const eol = options.eol ?? '\n';
  const json = options.multiLineData ? JSON.stringify(payload, null, 1) : JSON.stringify(payload);
  const data = options.sseFields ? 'data:' : 'data: ';
  const lines = json.split('\n').map((line) => `${data}${line}`);
  if (options.sseFields) lines.unshift('event: message', `id: ${index}`, ...(index === 0 ? ['retry: 3000'] : []));
  const ping = options.keepAlive ? `: ping${eol}${eol}` : '';
  return `${ping}${lines.join(eol)}${eol}${eol}`;
}

function sseBody(events: unknown[], options: EncodeOptions): string {
  const eol = options.eol ?? '\n';
  const done = options.done === false ? '' : `data: [DONE]${eol}${eol}`;
  return events.map((event, i) => sseEvent(event, options, i)).join('') + done;
}

export function encodeUiSse(deltas: string[], options: EncodeOptions = {}): string {
  const events: unknown[] = options.bare ? [] : [{ type: 'start', messageId: 'msg-1' }, { type: 'text-start', id: 't1' }];
  for (const delta of deltas) events.push({ type: 'text-delta', id: 't1', delta });
  events.push({ type: 'text-end', id: 't1' });
  events.push(...closing([{ type: 'finish' }], [{ type: 'usage', ...options.usage }], options));
  return sseBody(events, options);
}

export function encodeOpenAiSse(deltas: string[], options: EncodeOptions = {}): string {
  const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'gpt-4o' };
  const events: unknown[] = options.bare ? [] : [{ ...base, choices: [{ index: 0, delta: { role: 'assistant' }, finish_reason: null }] }];
  for (const content of deltas) events.push({ ...base, choices: [{ index: 0, delta: { content }, finish_reason: null }] });
  events.push(...closing([{ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }], [{ type: 'usage', ...options.usage }], options));
  return sseBody(events, options);
}

export function encodeDataStream(deltas: string[], options: EncodeOptions = {}): string {
  const eol = options.eol ?? '\n';
  const lines = options.bare ? [] : ['f:{"messageId":"msg-1"}'];
  for (const delta of deltas) lines.push(`0:${JSON.stringify(delta)}`);
  const finish = [
    'e:{"finishReason":"stop","usage":{"promptTokens":1,"completionTokens":2},"isContinued":false}',
    'd:{"finishReason":"stop","usage":{"promptTokens":1,"completionTokens":2}}',
  ];
  lines.push(...(closing(finish, [`2:${JSON.stringify([{ type: 'usage', ...options.usage }])}`], options) as string[]));
  return lines.map((line) => line + eol).join('');
}

export function encodeNdjson(deltas: string[], options: EncodeOptions = {}): string {
  const eol = options.eol ?? '\n';
  const events: unknown[] = options.bare ? [] : [{ type: 'start' }];
  for (const delta of deltas) events.push({ type: 'text-delta', id: 't1', delta });
  events.push(...closing([{ type: 'finish', finishReason: 'stop' }], [{ type: 'usage', ...options.usage }], options));
  const done = options.done === true ? `[DONE]${eol}` : '';
  return events.map((event) => JSON.stringify(event) + eol).join('') + done;
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
