// Before anything is sent: a threshold scoped to a model, case or thread the run will not contain is an input error, not a silent "no samples" failure.
import { validateThresholds } from '../metrics/thresholds.js';
import type { ThresholdTag } from '../metrics/threshold-grammar.js';
import { InputError } from '../domain/errors.js';
import type { Suite } from '../domain/suite.js';
import type { Plan } from '../plan/types.js';

interface RunContents {
  suite: Suite;
  plan: Plan;
}

/** Why the run will hold no sample of `value`, or null when it will. */
type ScopeCheck = (value: string, run: RunContents) => string | null;

const runsOn = (models: readonly string[] | undefined, plan: Plan): boolean => models === undefined || models.some((m) => plan.models.includes(m));

/**
 * The tags whose values the suite and plan can vouch for before the run. Others (outcome, endpoint,
 * turn…) describe how requests end and are judged on what happens. A `tag` scope (suite tags)
 * belongs here too: check that some case or thread of the plan carries it.
 */
const SCOPE_CHECKS: Partial<Record<ThresholdTag, ScopeCheck>> = {
  model: (model, { plan }) => (plan.models.includes(model) ? null : `this run's models are ${plan.models.join(', ')} (--models or the suite's models leave "${model}" out)`),
  case: (id, { suite, plan }) => {
    for (const c of suite.cases) if (c.id === id) return runsOn(c.models, plan) ? null : `case "${id}" runs only on ${c.models!.join(', ')}, none of this run's models`;
    return `the suite has no case "${id}"`;
  },
  thread: (id, { suite, plan }) => {
    const thread = suite.threads.find((t) => t.id === id);
    if (!thread) return `the suite has no thread "${id}"`;
    return runsOn(thread.models, plan) ? null : `thread "${id}" runs only on ${thread.models!.join(', ')}, none of this run's models`;
  },
};

/** Throws InputError (exit 2) naming every threshold whose scope the run will not contain. */
export function assertThresholdScopes(thresholds: Record<string, readonly string[]>, run: RunContents): void {
  const problems: InputError[] = [];
  const seen = new Set<string>();
  for (const t of validateThresholds(thresholds)) {
    if (seen.has(t.key)) continue;
    seen.add(t.key);
    for (const [tag, value] of Object.entries(t.scope)) {
      const problem = SCOPE_CHECKS[tag as ThresholdTag]?.(value, run);
      if (problem) problems.push(new InputError(`threshold "${t.key}" can never have a sample: ${problem}`, { file: run.suite.path, field: `thresholds.${t.key}` }));
    }
  }
  const [first] = problems;
  if (first === undefined) return;
  if (problems.length === 1) throw first;
  throw new InputError(problems.map((p) => p.message).join('\n'), { file: run.suite.path, field: 'thresholds' });
}
