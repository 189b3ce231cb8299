// Server-Sent Events decoder for the 'ui-sse' and 'openai-sse' dialects (eventsource-parser does
// the SSE framing: CR/LF/CRLF, comments, multi-line data fields).
import { createParser, type EventSourceMessage, type EventSourceParser } from 'eventsource-parser';
import { SSE_DONE } from '../../protocol/index.js';
import { stripBom, type DecodedEvent, type DialectDecoder } from './events.js';
import { interpretPayload, parseJsonPayload } from './payload.js';

type SseDialect = 'ui-sse' | 'openai-sse';

/**
 * The AI SDK's text-delta frame exactly as it writes it, with an id and a delta free of escapes,
 * quotes and control characters: read without JSON.parse (the same value, since such a string is
 * its own JSON text), as most of a stream's frames are these and parsing them showed in the profile.
 * Any other spelling is parsed as JSON.
 */
// eslint-disable-next-line no-control-regex -- a JSON string holds no raw U+0000-U+001F, so neither may the fast path's
const PLAIN_TEXT_DELTA = /^\{"type":"text-delta","id":"[^"\\\u0000-\u001f]*","delta":"([^"\\\u0000-\u001f]*)"\}$/;

export class SseDecoder implements DialectDecoder {
  private label: SseDialect;
  private locked: boolean;
  private started = false;
  private done = false;
  private pending: DecodedEvent[] = [];
  private readonly parser: EventSourceParser;

  /** `forced` fixes the label; otherwise the first recognised payload decides it. */
  constructor(forced?: SseDialect) {
    this.label = forced ?? 'ui-sse';
    this.locked = forced !== undefined;
    // Unknown fields and bad `retry` values are not ours to judge: onError stays a no-op.
    this.parser = createParser({ onEvent: (message) => this.onMessage(message) });
  }

  get dialect(): SseDialect {
    return this.label;
  }

  feed(text: string): DecodedEvent[] {
    if (!this.started && text !== '') {
      this.started = true;
      // eventsource-parser looks for the BOM as UTF-8 bytes, not as the decoded U+FEFF.
      text = stripBom(text);
    }
    this.parser.feed(text);
    return this.drain();
  }

  end(): DecodedEvent[] {
    // A last event the server did not close with a blank line still counts.
    this.parser.feed('\n\n');
    return this.drain();
  }

  private drain(): DecodedEvent[] {
    const events = this.pending;
    this.pending = [];
    return events;
  }

  private onMessage(message: EventSourceMessage): void {
    if (this.done) return;
    const data = message.data;
    if (data.trim() === SSE_DONE) {
      this.done = true;
      return;
    }
    if (message.event === 'error') {
      this.pending.push({ kind: 'error', message: data });
      return;
    }
    const plain = PLAIN_TEXT_DELTA.exec(data);
    if (plain !== null) {
      if (plain[1] !== '') this.pending.push({ kind: 'text', text: plain[1]! });
      this.settle('ui');
      return;
    }
    this.settle(interpretPayload(parseJsonPayload(data, 'SSE data field'), this.pending));
  }

  private settle(shape: 'ui' | 'openai' | null): void {
    if (shape !== null && !this.locked) {
      this.label = shape === 'openai' ? 'openai-sse' : 'ui-sse';
      this.locked = true;
    }
  }
}
