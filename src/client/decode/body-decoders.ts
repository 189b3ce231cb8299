// The two decoders without framing: plain text (end of body = finish) and a whole JSON body.
import type { AnswerDialect, DecodedEvent, DialectDecoder } from './events.js';

export class PlainTextDecoder implements DialectDecoder {
  readonly dialect = 'text' as const;

  feed(text: string): DecodedEvent[] {
    return text === '' ? [] : [{ kind: 'text', text }];
  }

  end(): DecodedEvent[] {
    return [{ kind: 'finish' }];
  }
}

/**
 * Buffers the whole body. With `textFallback` (a sniffed body that merely started like JSON),
 * a body that does not parse is plain text after all.
 */
export class JsonBodyDecoder implements DialectDecoder {
  private parts: string[] = [];
  private label: AnswerDialect = 'json';

  constructor(private readonly textFallback = false) {}

  get dialect(): AnswerDialect {
    return this.label;
  }

  feed(text: string): DecodedEvent[] {
    if (text !== '') this.parts.push(text);
    return [];
  }

  end(): DecodedEvent[] {
    const raw = this.parts.join('');
    this.parts = [];
    if (this.textFallback && !parses(raw)) {
      this.label = 'text';
      return raw === '' ? [{ kind: 'finish' }] : [{ kind: 'text', text: raw }, { kind: 'finish' }];
    }
    return [{ kind: 'body', raw }];
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
