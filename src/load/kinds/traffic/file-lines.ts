// A text file's lines, read in a fixed window: the traffic log's reader, whatever the file's size.
import { createReadStream } from 'node:fs';

/** Bytes read at a time: a fixed window, whatever the file's size. */
const READ_BYTES = 64 * 1024;

/**
 * A file's lines, split by hand from fixed-size reads (readline's async iterator buffered each chunk's
 * lines as events and cost tens of MB of young generation over ten million lines). Line ends as
 * readline's: \n, \r\n or a lone \r.
 */
export async function* fileLines(file: string): AsyncGenerator<string> {
  let rest = '';
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: READ_BYTES }) as AsyncIterable<string>) {
    const text = rest + chunk;
    let from = 0;
    // Each end is searched once per chunk, not once per line (a chunk without \r scans it once).
    let lf = text.indexOf('\n');
    let cr = text.indexOf('\r');
    for (;;) {
      if (lf !== -1 && lf < from) lf = text.indexOf('\n', from);
      if (cr !== -1 && cr < from) cr = text.indexOf('\r', from);
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(lf, cr);
      // A \r last in the chunk may be the first half of a \r\n: wait for the next chunk.
      if (end === -1 || (end === cr && end === text.length - 1)) break;
      yield text.slice(from, end);
      from = end + (end === cr && lf === end + 1 ? 2 : 1);
    }
    rest = text.slice(from);
  }
  if (rest.endsWith('\r')) rest = rest.slice(0, -1);
  if (rest !== '') yield rest;
}
