// Before anything is sent: a model name that is a known one written differently (`gpt4o`, `GPT-4o`) is a typo (exit 2, with the name meant).
import { InputError } from '../domain/errors.js';
import { KNOWN_MODELS } from '../protocol/models.js';
import { DEFAULT_MODEL_LABEL } from '../plan/types.js';

/** Case and separators do not make a model name: `gpt4o`, `GPT_4o` and `gpt-4o` are one. */
const normalized = (model: string): string => model.toLowerCase().replace(/[-_.\s]/g, '');

/**
 * Model names change (public-facts.md), so a name that is merely unknown is still sent as written
 * (a warning when the suite is read). Only a name that equals a known one up to case and
 * separators is refused: no service would list both, and every request would be wasted on it.
 */
export function assertModelNames(models: readonly string[], file: string): void {
  const problems: string[] = [];
  for (const model of models) {
    if (model === DEFAULT_MODEL_LABEL || (KNOWN_MODELS as readonly string[]).includes(model)) continue;
    const meant = KNOWN_MODELS.find((known) => normalized(known) === normalized(model));
    if (meant !== undefined) problems.push(`unknown model "${model}" (did you mean "${meant}"?); the service's models are ${KNOWN_MODELS.join(', ')}`);
  }
  if (problems.length > 0) throw new InputError(problems.join('\n'), { file, field: 'models' });
}

