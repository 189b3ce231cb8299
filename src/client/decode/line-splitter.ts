// Splits streamed text into lines on LF, CRLF or a lone CR, wherever the chunk boundaries fall.
const LF = 10;
const CR = 13;

export class LineSplitter {
  private buffer = '';

  /** Returns the lines completed by this text, without their terminators. */
  push(text: string): string[] {
    if (text === '') return [];
    // Only the new text (and a CR held back at the old end) can hold a terminator.
    const scanFrom = Math.max(0, this.buffer.length - 1);
    const buf = this.buffer + text;
    const lines: string[] = [];
    let start = 0;
    for (let i = scanFrom; i < buf.length; i++) {
      const code = buf.charCodeAt(i);
      if (code === LF) {
        lines.push(buf.slice(start, i));
        start = i + 1;
      } else if (code === CR) {
        // A CR at the very end may be the first half of a CRLF split across chunks: wait.
        if (i + 1 === buf.length) break;
        lines.push(buf.slice(start, i));
        if (buf.charCodeAt(i + 1) === LF) i++;
        start = i + 1;
      }
    }
    this.buffer = buf.slice(start);
    return lines;
  }

  /** The body ended: an unterminated last line still counts. */
  end(): string[] {
    let rest = this.buffer;
    this.buffer = '';
    if (rest === '') return [];
    if (rest.charCodeAt(rest.length - 1) === CR) rest = rest.slice(0, -1);
    return [rest];
  }
}
