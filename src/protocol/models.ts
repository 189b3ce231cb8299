// The model values interface.md names. Model names change, so this list informs warnings and
// the reference service's profiles; it never rejects a model a user asks for.
export const KNOWN_MODELS = [
  'claude-sonnet-4-6',
  'claude-sonnet-4-5',
  'claude-sonnet-5',
  'o3-mini',
  'gpt-4o',
  'grok-2-1212',
  'gpt-4o-mini',
] as const;

export type KnownModel = (typeof KNOWN_MODELS)[number];

export const DEFAULT_MODEL: KnownModel = 'claude-sonnet-4-6';

export function isKnownModel(model: string): model is KnownModel {
  return (KNOWN_MODELS as readonly string[]).includes(model);
}
