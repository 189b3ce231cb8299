// Reports read people's labels (labels.csv) beside results.ndjson: agreement measured on the run's own
// verdicts, then each labelled answer's verdict is the person's, and an uncalibrated grader's checks do not gate.
import type { RunInfo } from '../domain/run.js';
import type { Sample } from '../domain/sample.js';
import type { Summary } from '../domain/summary.js';
import { reviewedSample } from '../graders/people-first.js';
import { createAgreementCollector } from '../graders/run-agreement.js';
import { answerLabels, parseRunLabels } from '../graders/run-labels.js';
import { labelsPath, readLabelsText } from '../store/labels-file.js';

export function createPeoplePass(runDir: string, run: RunInfo) {
  const text = readLabelsText(runDir);
  const labels = text === null ? new Map<string, { human: boolean; note: string }>() : answerLabels(parseRunLabels(text, labelsPath(runDir)));
  const collector = text === null ? null : createAgreementCollector(labels);
  const calibration = run.grader_calibration;
  return {
    /** The sample as reports count it; agreement is taken on the grader's verdict, before the person's replaces it. */
    apply(sample: Sample): Sample {
      collector?.add(sample);
      if (labels.size === 0 && calibration === undefined) return sample;
      return reviewedSample(sample, labels.get(sample.item_id), calibration);
    },
    finish(summary: Summary): Summary {
      const withAgreement = collector ? { ...summary, agreement: collector.result() } : summary;
      return calibration ? { ...withAgreement, grader_calibration: calibration } : withAgreement;
    },
  };
}
