// Newline-delimited JSON decoder: one UI-message chunk (or OpenAI chunk) per line.
import { SSE_DONE } from '../../protocol/index.js';
import type { DecodedEvent, DialectDecoder } from './events.js';
import { LineDecoder } from './line-decoder.js';
import { interpretPayload, parseJsonPayload } from './payload.js';

export class NdjsonDecoder extends LineDecoder implements DialectDecoder {
  readonly dialect = 'ndjson' as const;
  private done = false;

  protected decodeLine(raw: string, out: DecodedEvent[]): void {
    const line = raw.trim();
    if (this.done) return;
    if (line === SSE_DONE) {
      this.done = true;
      return;
    }
    interpretPayload(parseJsonPayload(line, 'NDJSON line'), out);
  }
}
