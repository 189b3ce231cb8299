// A run's labels against its own verdicts (`kbbench grader-check RUN_DIR`, a suite's `grader: { labels: RUN_DIR }`): sends nothing.
import { readFileSync, statSync } from 'node:fs';
import { InputError } from '../domain/errors.js';
import type { Agreement } from '../graders/agreement.js';
import { fileAgreement } from '../graders/calibration.js';
import { createAgreementCollector, type RunAgreement } from '../graders/run-agreement.js';
import { answerLabels, parseRunLabels, type RunLabel } from '../graders/run-labels.js';
import { labelsPath, readLabelsText } from '../store/labels-file.js';
import { readResults } from '../store/results-reader.js';
import { assertRunDir } from '../store/run-dir.js';

export const isDirectory = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** The run's labels.csv, each item × check's last row; an input error when the run has none. */
export function runLabelsOf(runDir: string, role: string): Map<string, RunLabel> {
  assertRunDir(runDir, role);
  const text = readLabelsText(runDir);
  if (text === null) throw new InputError(`the run has no labels.csv yet: label its answers with kbbench review ${runDir}`, { file: labelsPath(runDir), field: role });
  return parseRunLabels(text, labelsPath(runDir));
}

export async function agreementOfRun(runDir: string, role: string): Promise<RunAgreement> {
  const collector = createAgreementCollector(answerLabels(runLabelsOf(runDir, role)));
  for await (const sample of readResults(runDir)) collector.add(sample);
  return collector.result();
}

/**
 * A suite's `grader: { labels }`: a reviewed run directory (its labels against its verdicts) or a
 * labels.csv alone (each row's person against the grader's verdict recorded beside it).
 */
export async function agreementOfLabels(path: string, field: string): Promise<Record<string, Agreement>> {
  if (isDirectory(path)) return (await agreementOfRun(path, field)).groups;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new InputError(`cannot read the labels (${(error as NodeJS.ErrnoException).code ?? 'error'}): give a labels.csv or a run directory reviewed with kbbench review`, { file: path, field });
  }
  return fileAgreement(parseRunLabels(text, path));
}
