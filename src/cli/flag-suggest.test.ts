import { describe, expect, it } from 'vitest';
import { knownFlags, withFlagSuggestions } from './flag-suggest.js';

const RUN = knownFlags(['concurrency', 'models', 'maxCredits', 'max-credits', 'c', 'help', 'version', 'quiet']);

describe('withFlagSuggestions', () => {
  it('names the near flag of a mistyped one', () => {
    expect(withFlagSuggestions('Unknown argument: concurency', RUN)).toBe('unknown flag --concurency (did you mean "--concurrency"?)');
    expect(withFlagSuggestions('Unknown argument: model', RUN)).toBe('unknown flag --model (did you mean "--models"?)');
    expect(withFlagSuggestions('Unknown arguments: max-credit, qiuet', RUN)).toBe(
      'unknown flag --max-credit (did you mean "--max-credits"?)\nunknown flag --qiuet (did you mean "--quiet"?)',
    );
  });

  it('says nothing more when no flag is near, and leaves other messages alone', () => {
    expect(withFlagSuggestions('Unknown argument: zebra', RUN)).toBe('unknown flag --zebra');
    expect(withFlagSuggestions('Not enough non-option arguments', RUN)).toBe('Not enough non-option arguments');
  });
});
