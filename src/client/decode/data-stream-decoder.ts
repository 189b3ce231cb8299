// AI SDK data-stream decoder: lines `CODE:JSON` (0 text, 2/8 data, 3 error, d/e finish).
import { StreamError } from '../../domain/index.js';
import type { DecodedEvent, DialectDecoder } from './events.js';
import { LineDecoder } from './line-decoder.js';
import { interpretPayload, parseJsonPayload, preview, usageFrom } from './payload.js';

const LINE = /^([0-9a-z]):([\s\S]*)$/;

export class DataStreamDecoder extends LineDecoder implements DialectDecoder {
  readonly dialect = 'data-stream' as const;

  protected decodeLine(line: string, out: DecodedEvent[]): void {
    decodeLine(line, out);
  }
}

function decodeLine(line: string, out: DecodedEvent[]): void {
  const match = LINE.exec(line);
  if (!match) {
    // A bare UI chunk such as {"type":"usage","credits_used":0.1} between the coded lines.
    if (line.trimStart().startsWith('{')) {
      interpretPayload(parseJsonPayload(line, 'data-stream line'), out);
      return;
    }
    throw new StreamError(`data-stream line without a type code: ${preview(line)}`);
  }
  const code = match[1] ?? '';
  const value = parseJsonPayload(match[2] ?? '', `data-stream part ${code}`);
  decodePart(code, value, out);
}

function decodePart(code: string, value: unknown, out: DecodedEvent[]): void {
  switch (code) {
    case '0':
      if (typeof value !== 'string') throw new StreamError('data-stream text part (0:) that is not a string');
      if (value !== '') out.push({ kind: 'text', text: value });
      return;
    case '2':
    case '8':
      if (Array.isArray(value)) for (const item of value) pushUsage(item, out);
      return;
    case '3':
      out.push({ kind: 'error', message: typeof value === 'string' ? value : preview(JSON.stringify(value)) });
      return;
    case 'd':
      pushFinish(value, out);
      return;
    case 'e':
      // A finish-step that announces a continuation is not the end of the message.
      if (!(isRecord(value) && value.isContinued === true)) pushFinish(value, out);
      return;
    default:
      return;
  }
}

function pushUsage(item: unknown, out: DecodedEvent[]): void {
  if (isRecord(item) && (item.type === 'usage' || item.type === undefined)) {
    const usage = usageFrom(item);
    if (usage) out.push(usage);
  }
}

function pushFinish(value: unknown, out: DecodedEvent[]): void {
  const reason = isRecord(value) && typeof value.finishReason === 'string' ? value.finishReason : undefined;
  out.push(reason === undefined ? { kind: 'finish' } : { kind: 'finish', finishReason: reason });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
