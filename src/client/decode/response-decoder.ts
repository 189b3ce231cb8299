// Bytes of one response body → decoded events: UTF-8 once, then the detected dialect's decoder.
import { StringDecoder } from 'node:string_decoder';
import { JsonBodyDecoder, PlainTextDecoder } from './body-decoders.js';
import { DataStreamDecoder } from './data-stream-decoder.js';
import { planFromHeaders, sniffPlan, type DecodePlan, type ResponseShape } from './detect.js';
import type { AnswerDialect, DecodedEvent, DialectDecoder } from './events.js';
import { NdjsonDecoder } from './ndjson-decoder.js';
import { SseDecoder } from './sse-decoder.js';

export function createDialectDecoder(plan: DecodePlan): DialectDecoder {
  switch (plan) {
    case 'sse':
      return new SseDecoder();
    case 'ui-sse':
    case 'openai-sse':
      return new SseDecoder(plan);
    case 'data-stream':
      return new DataStreamDecoder();
    case 'ndjson':
      return new NdjsonDecoder();
    case 'text':
      return new PlainTextDecoder();
    case 'json':
      return new JsonBodyDecoder(false);
    case 'json-or-text':
      return new JsonBodyDecoder(true);
    default: {
      const unreachable: never = plan;
      throw new Error(`unknown decode plan ${String(unreachable)}`);
    }
  }
}

export class ResponseDecoder {
  // A StringDecoder keeps a leading U+FEFF in the text (a plain-text answer must come out byte for
  // byte; the framed dialects drop it themselves) and holds back a split UTF-8 sequence. It is cheap
  // to make, where a TextDecoder per response (an ICU converter each) showed in the profile.
  private readonly utf8 = new StringDecoder('utf8');
  private inner: DialectDecoder | null = null;
  private sniffed = '';
  private readonly jsonContentType: boolean;

  constructor(shape: ResponseShape) {
    const plan = planFromHeaders(shape);
    this.jsonContentType = plan === 'sniff-json';
    if (plan !== 'sniff' && plan !== 'sniff-json') this.inner = createDialectDecoder(plan);
  }

  /** Null until the first bytes have decided the dialect. */
  get dialect(): AnswerDialect | null {
    return this.inner?.dialect ?? null;
  }

  /** True when the response is a whole JSON body rather than a stream. */
  get isJsonBody(): boolean {
    return this.inner instanceof JsonBodyDecoder && this.inner.dialect === 'json';
  }

  push(bytes: Uint8Array): DecodedEvent[] {
    return this.feedText(this.utf8.write(bytes), false);
  }

  end(): DecodedEvent[] {
    const events = this.feedText(this.utf8.end(), true);
    // feedText with ended=true always settles the dialect.
    return this.inner ? [...events, ...this.inner.end()] : events;
  }

  private feedText(text: string, ended: boolean): DecodedEvent[] {
    if (this.inner) return this.inner.feed(text);
    this.sniffed += text;
    const plan = sniffPlan(this.sniffed, ended, this.jsonContentType);
    if (plan === null) return [];
    this.inner = createDialectDecoder(plan);
    const buffered = this.sniffed;
    this.sniffed = '';
    return this.inner.feed(buffered);
  }
}
