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
    if (this.textFallback) {
      const parsed = tryParse(raw);
      if (parsed === NOT_JSON) {
        this.label = 'text';
        return raw === '' ? [{ kind: 'finish' }] : [{ kind: 'text', text: raw }, { kind: 'finish' }];
      }
      // Handed on, so the answer is parsed once, not once here and again by its reader.
      return [{ kind: 'body', raw, value: parsed }];
    }
    return [{ kind: 'body', raw }];
  }
}

const NOT_JSON = Symbol('not JSON');

function tryParse(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return NOT_JSON;
  }
}
