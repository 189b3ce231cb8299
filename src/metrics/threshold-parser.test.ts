// The k6 threshold grammar: what parses, what each malformed form is told, and property tests.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../domain/errors.js';
import { METRIC_AGGREGATIONS, OPERATORS, THRESHOLD_METRICS, THRESHOLD_TAGS, type AggregationName } from './threshold-grammar.js';
import { formatThreshold, parseThreshold, parseThresholdFlag, parseThresholdKey } from './threshold-parser.js';

describe('parseThreshold', () => {
  it('reads every aggregation form, with spaces and decimals', () => {
    expect(parseThreshold('ttfc_ms', 'p(95)<2000')).toEqual({
      key: 'ttfc_ms',
      metric: 'ttfc_ms',
      scope: {},
      expression: 'p(95)<2000',
      aggregation: { name: 'p', p: 95 },
      operator: '<',
      value: 2000,
    });
    expect(parseThreshold('latency_ms', ' p( 99.9 ) <= 1.5e3 ')).toMatchObject({ aggregation: { name: 'p', p: 99.9 }, operator: '<=', value: 1500, expression: 'p( 99.9 ) <= 1.5e3' });
    expect(parseThreshold('pass_rate', 'rate>=0.95')).toMatchObject({ aggregation: { name: 'rate' }, operator: '>=', value: 0.95 });
    expect(parseThreshold('errors', 'count==0')).toMatchObject({ aggregation: { name: 'count' }, operator: '==', value: 0 });
    expect(parseThreshold('credits_used', 'sum!=-.5')).toMatchObject({ operator: '!=', value: -0.5 });
    expect(parseThreshold('credits_per_request', 'value<0.1')).toMatchObject({ aggregation: { name: 'value' } });
    expect(parseThreshold('ttfb_ms', 'p(100)>0')).toMatchObject({ aggregation: { name: 'p', p: 100 }, operator: '>' });
  });

  it('reads tag scopes', () => {
    expect(parseThresholdKey('ttfc_ms{model:gpt-4o}')).toEqual({ key: 'ttfc_ms{model:gpt-4o}', metric: 'ttfc_ms', scope: { model: 'gpt-4o' } });
    expect(parseThresholdKey(' latency_ms { thread : onboarding , turn:2 } ').scope).toEqual({ thread: 'onboarding', turn: '2' });
    expect(parseThresholdKey('pass_rate{case:refund-window}').scope).toEqual({ case: 'refund-window' });
  });

  it.each([
    ['ttfc_ms', 'avgg<3', 'unknown aggregation "avgg"'],
    ['ttfc_ms', 'rate<3', 'aggregation "rate" is not valid for ttfc_ms (valid: count, sum, avg, min, max, med, p(N))'],
    ['pass_rate', 'p(95)>0.9', 'aggregation "p(N)" is not valid for pass_rate (valid: rate)'],
    ['ttfc_ms', 'p(95)2000', 'missing operator after "p(95)"'],
    ['ttfc_ms', 'avg=2000', '"=" alone is not an operator, use "=="'],
    ['ttfc_ms', 'avg<', 'missing value after "<"'],
    ['ttfc_ms', 'avg<2s', 'value "2s" is not a number (times are milliseconds, written without a unit: write 2000)'],
    ['ttfc_ms', 'med<=100ms', 'value "100ms" is not a number (times are milliseconds, written without a unit: write 100)'],
    ['pass_rate', 'rate>=95%', 'value "95%" is not a number (a rate is a fraction: write 0.95)'],
    ['ttfc_ms', 'avg<1e999', 'value "1e999" is too large'],
    ['ttfc_ms', 'p(0)<1', 'percentile p(0) is out of range: N must be in (0, 100]'],
    ['ttfc_ms', 'p(100.5)<1', 'out of range'],
    ['ttfc_ms', 'p95<1', 'p needs a percentile in parentheses, e.g. p(95)'],
    ['ttfc_ms', 'p<1', 'p needs a percentile in parentheses'],
    ['ttfc_ms', 'p(x)<1', 'percentile "x" in p(x) is not a number'],
    ['ttfc_ms', '', 'the expression is empty'],
    ['ttfc_ms', '<5', 'expected an aggregation'],
    ['ttfc', 'avg<1', 'unknown metric "ttfc"'],
    ['ttfc_ms{model=gpt-4o}', 'avg<1', 'bad tag syntax "model=gpt-4o": write name:value'],
    ['ttfc_ms{model:gpt-4o', 'avg<1', 'bad tag syntax'],
    ['ttfc_ms{colour:red}', 'avg<1', 'unknown tag "colour"'],
    ['ttfc_ms{model:}', 'avg<1', 'tag "model" has an empty value'],
    ['ttfc_ms{model:a,model:b}', 'avg<1', 'tag "model" is given twice'],
    ['ttfc_ms{}', 'avg<1', 'bad tag syntax'],
  ])('%s: %j is refused: %s', (key, expression, problem) => {
    let error: unknown;
    try {
      parseThreshold(key, expression);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toContain(problem);
    expect((error as InputError).message).toContain(`threshold "${key}`);
  });
});

describe('parseThresholdFlag', () => {
  it('splits METRIC=EXPRESSION', () => {
    expect(parseThresholdFlag('ttfc_ms=p(95)<2000')).toEqual({ key: 'ttfc_ms', expression: 'p(95)<2000' });
    expect(parseThresholdFlag('ttfc_ms{model:gpt-4o} = avg<=5')).toEqual({ key: 'ttfc_ms{model:gpt-4o}', expression: 'avg<=5' });
  });

  it('refuses other shapes', () => {
    expect(() => parseThresholdFlag('ttfc_ms p(95)<2000')).toThrow(/expected METRIC=EXPRESSION/);
    expect(() => parseThresholdFlag('errors==0')).toThrow(/expected METRIC=EXPRESSION/);
    expect(() => parseThresholdFlag('ttfc_ms=p(95)<')).toThrow(/missing value/);
  });
});

const space = fc.constantFrom('', ' ', '  ');
const tagValue = fc.stringMatching(/^[A-Za-z0-9._-]{1,12}$/);
const numberText = fc.oneof(
  fc.integer({ min: -1e6, max: 1e6 }).map(String),
  fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }).map(String),
  fc.constantFrom('0.5', '.5', '1e3', '2E-2', '+7', '10.'),
);
const percentile = fc.oneof(fc.integer({ min: 1, max: 100 }), fc.double({ min: 0.001, max: 100, noNaN: true })).map(String);

const wellFormed = fc
  .record({
    metric: fc.constantFrom(...THRESHOLD_METRICS),
    tags: fc.uniqueArray(fc.tuple(fc.constantFrom(...THRESHOLD_TAGS), tagValue), { maxLength: 3, selector: ([name]) => name }),
    operator: fc.constantFrom(...OPERATORS),
    value: numberText,
    p: percentile,
    pick: fc.nat(),
    s: fc.tuple(space, space, space, space),
  })
  .map(({ metric, tags, operator, value, p, pick, s }) => {
    const aggregations = METRIC_AGGREGATIONS[metric] as readonly AggregationName[];
    const name = aggregations[pick % aggregations.length] ?? 'count';
    const aggregation = name === 'p' ? `p(${s[0]}${p}${s[0]})` : name;
    const key = tags.length === 0 ? metric : `${metric}{${tags.map(([t, v]) => `${t}:${v}`).join(',')}}`;
    return { key, expression: `${s[1]}${aggregation}${s[2]}${operator}${s[3]}${value}` };
  });

describe('properties', () => {
  it('every well-formed expression parses and round-trips through formatThreshold', () => {
    fc.assert(
      fc.property(wellFormed, ({ key, expression }) => {
        const parsed = parseThreshold(key, expression);
        const formatted = formatThreshold(parsed);
        const again = parseThreshold(formatted.key, formatted.expression);
        expect({ ...again, key: parsed.key, expression: parsed.expression }).toEqual(parsed);
        expect(formatThreshold(again)).toEqual(formatted);
        expect(parseThresholdFlag(`${formatted.key}=${formatted.expression}`)).toEqual(formatted);
      }),
      { numRuns: 500 },
    );
  });

  it('random text never throws anything but InputError', () => {
    const noise = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.stringMatching(/^[a-z_(){}:,.<>=!0-9 -]{0,30}$/),
      wellFormed.chain(({ key, expression }) => fc.tuple(fc.nat(expression.length), fc.string({ maxLength: 3 })).map(([at, junk]) => ({ key, expression: expression.slice(0, at) + junk + expression.slice(at) }))),
    );
    fc.assert(
      fc.property(noise, noise, (a, b) => {
        for (const [key, expression] of [
          [typeof a === 'string' ? a : a.key, typeof b === 'string' ? b : b.expression],
          [typeof a === 'string' ? 'ttfc_ms' : a.key, typeof a === 'string' ? a : a.expression],
        ] as const) {
          try {
            parseThreshold(key, expression);
          } catch (error) {
            expect(error).toBeInstanceOf(InputError);
          }
          try {
            parseThresholdFlag(`${key}=${expression}`);
          } catch (error) {
            expect(error).toBeInstanceOf(InputError);
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});
