// People's labels against a run's own verdicts: per model-graded check type, the deterministic checks
// together, and the answer's verdict; fed one result line at a time (a run may be large).
import type { Sample } from '../domain/sample.js';
import type { LabelDisagreement, PeopleAgreement } from '../domain/summary.js';
import { MODEL_GRADED_TYPES } from '../domain/suite.js';
import { agreement, type Agreement } from './agreement.js';
import { checkIdOf } from './run-labels.js';

export type RunAgreement = PeopleAgreement;

const isModelGraded = (type: string): boolean => (MODEL_GRADED_TYPES as readonly string[]).includes(type);

/** At most this many disagreements listed (all are counted in the confusion tables). */
const SHOWN = 200;

export function createAgreementCollector(labels: ReadonlyMap<string, { human: boolean; note: string }>) {
  const pairs = new Map<string, { human: boolean; grader: boolean }[]>();
  const disagreements: LabelDisagreement[] = [];
  const seen = new Set<string>();
  const pair = (sample: Sample, group: string, checkId: string | null, human: boolean, grader: boolean, detail: string, note: string): void => {
    const list = pairs.get(group) ?? [];
    list.push({ human, grader });
    pairs.set(group, list);
    if (human !== grader && disagreements.length < SHOWN) {
      disagreements.push({ item_id: sample.item_id, model: sample.model, group, check_id: checkId, human: human ? 'pass' : 'fail', grader: grader ? 'pass' : 'fail', detail, note });
    }
  };
  return {
    add(sample: Sample): void {
      const label = labels.get(sample.item_id);
      if (label === undefined || sample.warmup) return;
      seen.add(sample.item_id);
      const { human, note } = label;
      const deterministic = sample.checks.filter((c) => !isModelGraded(c.type));
      sample.checks.forEach((check, i) => {
        if (isModelGraded(check.type) && check.pass !== null) pair(sample, check.type, checkIdOf(i, check), human, check.pass, check.detail, note);
      });
      if (deterministic.length > 0 && sample.outcome === 'ok') {
        const failed = deterministic.find((c) => c.pass === false);
        pair(sample, 'deterministic', null, human, failed === undefined, failed ? `${failed.type}: ${failed.detail}` : 'every deterministic check passed', note);
      }
      if (sample.not_judged === undefined) pair(sample, 'answer', null, human, sample.pass, sample.error?.message ?? (sample.pass ? 'passed' : 'failed'), note);
    },
    result(): RunAgreement {
      const groups: Record<string, Agreement> = {};
      for (const [group, list] of pairs) groups[group] = agreement(list);
      return { labelled_answers: seen.size, unmatched: [...labels.keys()].filter((id) => !seen.has(id)).length, groups, disagreements };
    },
  };
}
