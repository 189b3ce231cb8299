// The shared frame of the line-based dialects (NDJSON, AI SDK data stream): split lines, drop a BOM.
import { stripBom, type DecodedEvent } from './events.js';
import { LineSplitter } from './line-splitter.js';

export abstract class LineDecoder {
  private readonly lines = new LineSplitter();
  private first = true;

  feed(text: string): DecodedEvent[] {
    return this.consume(this.lines.push(text));
  }

  end(): DecodedEvent[] {
    return this.consume(this.lines.end());
  }

  /** One complete line (BOM already stripped from the first); blank lines never reach it. */
  protected abstract decodeLine(line: string, out: DecodedEvent[]): void;

  private consume(lines: string[]): DecodedEvent[] {
    const out: DecodedEvent[] = [];
    for (const raw of lines) {
      const line = this.first ? stripBom(raw) : raw;
      this.first = false;
      if (line.trim() !== '') this.decodeLine(line, out);
    }
    return out;
  }
}
