// The facts a `similar` check requires of an answer: what counts as one, and when an answer states or contradicts it.
import { describe, expect, it } from 'vitest';
import { extractFacts, judgeFacts } from './reference-facts.js';

const facts = (text: string) => extractFacts(text, 'measures').map((f) => `${f.kind}:${f.unit ?? ''}:${f.value}`);

describe('extractFacts', () => {
  it('reads numbers with units, amounts, dates, times and names; not sentence-initial words or list numbers', () => {
    expect(facts('You have 72 hours. The fee is €4.99, due by 12 March 2025 at 9:30 am via the Help Center and the ParcelPoint app (SMS).')).toEqual([
      'date:date:03-12', 'time:time:570', 'amount:EUR:4.99', 'number:duration:259200', 'term::help center', 'term::parcelpoint', 'term::sms',
    ]);
    expect(facts('1. Open the app.\n2. Enter the code.')).toEqual([]);
    expect(facts('The PX-200 locker has a "Quick Open" mode.')).toEqual(['term::px 200', 'term::quick open']);
  });

  it('takes number words as facts only before a unit of measure in a reference', () => {
    expect(facts('Parcels stay three days; one code opens one door.')).toEqual(['number:duration:259200']);
    expect(extractFacts('one code', 'all').map((f) => f.value)).toEqual(['1']);
  });
});

describe('judgeFacts', () => {
  // Amounts are read before plain numbers, so €2 comes first.
  const ref = extractFacts('Collect within 72 hours for €2 at the Main Station locker.', 'measures');
  const status = (answer: string) => judgeFacts(ref, answer).map((v) => `${v.fact.text}=${v.status}${v.instead ? `(${v.instead})` : ''}`);

  it('finds facts however they are written, and names what contradicts them', () => {
    expect(status('You have 3 days and pay 2 EUR at main station.')).toEqual(['€2=found', '72 hours=found', 'Main Station=found']);
    expect(status('You have 48 hours and pay $2 at the airport.')).toEqual(['€2=contradicted($2)', '72 hours=contradicted(48 hours)', 'Main Station=absent']);
    expect(status('Pick it up; the 24-hour extension is free.')).toEqual(['€2=absent', '72 hours=contradicted(24-hour)', 'Main Station=absent']);
  });

  it('does not take another number of the same unit as a contradiction when the fact is also stated', () => {
    expect(status('72 hours, extendable by 24 hours; €2 at Main Station.')).toEqual(['€2=found', '72 hours=found', 'Main Station=found']);
  });
});

describe('names around a taken number', () => {
  it('keeps "SOC" and "II" apart when "2 Type" between them is a number with its unit', () => {
    const ref = extractFacts('Yes, Cobalt Desk is SOC 2 Type II certified.', 'measures');
    expect(ref.map((f) => f.text)).toEqual(['2 Type', 'Cobalt Desk', 'SOC', 'II']);
    expect(judgeFacts(ref, 'Cobalt Desk is SOC 2 Type II certified.').every((v) => v.status === 'found')).toBe(true);
  });
});
