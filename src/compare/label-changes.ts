// People's labels that changed between two runs: an answer a person called right in the base and wrong in the head (or back).
import { answerLabels, parseRunLabels } from '../graders/run-labels.js';
import { labelsPath, readLabelsText } from '../store/labels-file.js';
import type { LabelChange } from './types.js';

function labelsOf(dir: string): Map<string, { human: boolean; note: string }> {
  const text = readLabelsText(dir);
  return text === null ? new Map() : answerLabels(parseRunLabels(text, labelsPath(dir)));
}

/** Items labelled in both runs whose verdicts differ, in the head's label order. */
export function labelChanges(baseDir: string, headDir: string): LabelChange[] {
  const base = labelsOf(baseDir);
  if (base.size === 0) return [];
  const word = (pass: boolean): 'pass' | 'fail' => (pass ? 'pass' : 'fail');
  const changes: LabelChange[] = [];
  for (const [itemId, head] of labelsOf(headDir)) {
    const before = base.get(itemId);
    if (before !== undefined && before.human !== head.human) {
      changes.push({ item_id: itemId, base: word(before.human), head: word(head.human), base_note: before.note, head_note: head.note });
    }
  }
  return changes;
}
