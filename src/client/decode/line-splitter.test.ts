// Unit tests: line splitting on LF, CRLF and CR across chunk boundaries.
import { describe, expect, it } from 'vitest';
import { LineSplitter } from './line-splitter.js';

function split(pieces: string[]): string[] {
  const splitter = new LineSplitter();
  return [...pieces.flatMap((piece) => splitter.push(piece)), ...splitter.end()];
}

describe('LineSplitter', () => {
  it('splits on LF, CRLF and a lone CR', () => {
    expect(split(['a\nb\r\nc\rd'])).toEqual(['a', 'b', 'c', 'd']);
  });

  it('keeps a CRLF split across chunks as one terminator', () => {
    expect(split(['a\r', '\nb\r', '', '\n'])).toEqual(['a', 'b']);
  });

  it('treats CR CR as two lines (one empty)', () => {
    expect(split(['a\r', '\rb'])).toEqual(['a', '', 'b']);
  });

  it('returns an unterminated last line at the end, without a trailing CR', () => {
    expect(split(['abc'])).toEqual(['abc']);
    expect(split(['abc\r'])).toEqual(['abc']);
  });

  it('joins a line split into many pieces', () => {
    expect(split(['{"a', '":', '1}', '\n'])).toEqual(['{"a":1}']);
  });
});
