// Newline-delimited JSON decoder: one UI-message chunk (or OpenAI chunk) per line.
import { SSE_DONE } from '../../protocol/index.js';
import { stripBom, type DecodedEvent, type DialectDecoder } from './events.js';
import { LineSplitter } from './line-splitter.js';
import { interpretPayload, parseJsonPayload } from './payload.js';

export class NdjsonDecoder implements DialectDecoder {
  readonly dialect = 'ndjson' as const;
  private readonly lines = new LineSplitter();
  private first = true;
  private done = false;

  feed(text: string): DecodedEvent[] {
    return this.consume(this.lines.push(text));
  }

  end(): DecodedEvent[] {
    return this.consume(this.lines.end());
  }

  private consume(lines: string[]): DecodedEvent[] {
    const out: DecodedEvent[] = [];
    for (const raw of lines) {
      const line = (this.first ? stripBom(raw) : raw).trim();
      this.first = false;
      if (line === '' || this.done) continue;
      if (line === SSE_DONE) {
        this.done = true;
        continue;
      }
      interpretPayload(parseJsonPayload(line, 'NDJSON line'), out);
    }
    return out;
  }
}
