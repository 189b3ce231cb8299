// The models a run sends to, and which of them a case or thread with its own `models` runs on.
import { DEFAULT_MODEL_LABEL } from './types.js';

export interface RunModels {
  /** null = no model parameter (the service's default). */
  models: (string | null)[];
  /** The run names its models (suite or flag), so a case restriction is intersected with them. */
  named: boolean;
}

/** A case's own `models` restricts it to those; when the run names none, they are used as given. */
export function modelsFor(restriction: readonly string[] | undefined, run: RunModels): (string | null)[] {
  if (!restriction) return run.models;
  if (!run.named) return [...restriction];
  return run.models.filter((model) => model !== null && restriction.includes(model));
}

export const label = (model: string | null): string => model ?? DEFAULT_MODEL_LABEL;
