// A run's models and a restriction: intersected when the run names models, taken as given when not.
import { describe, expect, it } from 'vitest';
import { label, modelsFor } from './run-models.js';

describe('modelsFor', () => {
  it('intersects a restriction with named run models, in the run order', () => {
    expect(modelsFor(['o3-mini', 'gpt-4o'], { models: ['gpt-4o', 'x', 'o3-mini'], named: true })).toEqual(['gpt-4o', 'o3-mini']);
    expect(modelsFor(undefined, { models: ['gpt-4o'], named: true })).toEqual(['gpt-4o']);
  });

  it('uses a restriction as given when the run names none, and labels the default model', () => {
    expect(modelsFor(['o3-mini'], { models: [null], named: false })).toEqual(['o3-mini']);
    expect([label(null), label('gpt-4o')]).toEqual(['default', 'gpt-4o']);
  });
});
