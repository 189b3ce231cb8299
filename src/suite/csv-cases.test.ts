// The lazy case list: read by position (negative from the end, as arrays), in order, and as values.
import { describe, expect, it } from 'vitest';
import { parseCsvSuite } from './csv.js';

const suite = () => parseCsvSuite(Buffer.from('id,prompt,thread,expected\na,First,,one\nt1,Turn,t,\n\nb,"Second, quoted",,\nc,Third,,three\n'), 'list.csv');

describe('CsvCaseList', () => {
  it('has the case rows only, each read from its row with its line', () => {
    const { cases } = suite();
    expect(cases.length).toBe(3);
    expect(cases.at(1)).toEqual({ id: 'b', prompt: 'Second, quoted', options: {}, assert: [], location: { file: 'list.csv', line: 5 } });
    expect(cases.at(0)?.assert).toEqual([{ type: 'contains', value: 'one', location: { file: 'list.csv', line: 2 } }]);
  });

  it('answers at() as an array does: negative from the end, undefined outside, fractions truncated', () => {
    const { cases } = suite();
    const array = [...cases];
    for (const index of [0, 2, -1, -3, 1.7, Number.NaN]) expect(cases.at(index)).toEqual(array.at(index));
    for (const index of [3, -4, Number.POSITIVE_INFINITY]) expect(cases.at(index)).toBeUndefined();
  });

  it('iterates in file order, again and again', () => {
    const { cases } = suite();
    expect([...cases].map((c) => c.id)).toEqual(['a', 'b', 'c']);
    expect([...cases].map((c) => c.id)).toEqual(['a', 'b', 'c']);
  });

  it('gives a fresh case per read, so changing one read does not change the suite', () => {
    const { cases } = suite();
    cases.at(0)!.options.user = 'changed';
    expect(cases.at(0)?.options).toEqual({});
  });
});
