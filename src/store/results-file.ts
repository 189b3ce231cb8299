// results.ndjson, the run's source of truth: one line per finished request, appended as it finishes.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, statSync, truncateSync, writeSync } from 'node:fs';
import type { Sample } from '../domain/sample.js';

/**
 * Lines are written with a synchronous append: once `append` returns, the line is in the file,
 * so neither a second Ctrl-C nor a crash right after can lose it. At a few hundred requests per
 * second the cost of a small write(2) per line is far below the cost of the request itself.
 */
export class ResultsFile {
  private readonly fd: number;
  private lines = 0;

  /** `redact` scrubs secrets from each line: a service that echoes the key must not get it written. */
  constructor(
    readonly path: string,
    private readonly redact: (line: string) => string = (line) => line,
  ) {
    dropTornTail(path);
    this.fd = openSync(path, 'a');
  }

  append(sample: Sample): void {
    writeSync(this.fd, `${this.redact(JSON.stringify(sample))}\n`);
    this.lines += 1;
  }

  get written(): number {
    return this.lines;
  }

  close(): void {
    fsyncSync(this.fd);
    closeSync(this.fd);
  }
}

/**
 * A run killed mid-write leaves a partial last line; appending after it would glue the next result
 * onto the fragment and lose both. Cut the file back to its last complete line (its request is
 * simply sent again on resume).
 */
function dropTornTail(path: string): void {
  if (!existsSync(path) || statSync(path).size === 0) return;
  const text = readFileSync(path);
  if (text[text.length - 1] === 0x0a) return;
  truncateSync(path, text.lastIndexOf(0x0a) + 1);
}

/** Every complete line of an existing results file; a torn last line (a killed run) is left out. */
export function readSamplesSync(path: string): Sample[] {
  if (!existsSync(path)) return [];
  const samples: Sample[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      samples.push(JSON.parse(line) as Sample);
    } catch {
      // A torn line can only be the last one; its request is sent again on resume.
    }
  }
  return samples;
}
