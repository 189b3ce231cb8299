// What the review page shows: a run's answers with their question, the thread so far, each check's
// verdict and the suite's rubric or reference, read once from the run directory (the page renders them).
import type { RunInfo } from '../domain/run.js';
import type { Sample } from '../domain/sample.js';
import type { CheckSpec, Suite } from '../domain/suite.js';
import { checkIdOf } from '../graders/run-labels.js';
import { readResults } from '../store/results-reader.js';
import { loadSuite } from '../suite/index.js';

export interface ReviewCheck {
  id: string;
  type: string;
  pass: boolean | null;
  detail: string;
  grader?: string;
  rubric?: string;
  reference?: string;
}

export interface ReviewAnswer {
  item_id: string;
  model: string;
  repeat: number;
  case_id: string | null;
  thread_id: string | null;
  turn: number | null;
  tags: string[];
  prompt: string;
  text: string;
  outcome: string;
  error: string | null;
  /** The run's verdict (its checks'), before any person's label. */
  pass: boolean;
  not_judged: string | null;
  checks: ReviewCheck[];
  /** Indexes (in the list) of the thread's earlier turns of the same model and repeat, in order. */
  earlier: number[];
}

export interface RunAnswers {
  samples: Map<string, Sample>;
  answers: ReviewAnswer[];
  /** The suite's checks of each item (by item_id), where the suite file could be read. */
  specs: Map<string, readonly CheckSpec[]>;
}

/** The suite as it was run, when its file is still there; without it the page shows verdicts but no rubric or reference. */
async function suiteOf(run: RunInfo): Promise<Suite | null> {
  try {
    return await loadSuite(run.suite.path);
  } catch {
    return null;
  }
}

/** Each case's and turn's checks, by `case:<id>` and `thread:<id>#<turn>`. */
function specIndex(suite: Suite | null): Map<string, readonly CheckSpec[]> {
  const index = new Map<string, readonly CheckSpec[]>();
  if (suite === null) return index;
  for (const c of suite.cases) index.set(`case:${c.id}`, c.assert);
  for (const t of suite.threads) for (const turn of t.turns) index.set(`thread:${t.id}#${turn.turn}`, turn.assert);
  return index;
}

const specKey = (sample: Sample): string => (sample.case_id !== null ? `case:${sample.case_id}` : `thread:${sample.thread_id}#${sample.turn}`);

function specText(spec: CheckSpec | undefined, key: 'rubric' | 'reference'): string | undefined {
  if (spec === undefined || typeof spec.value !== 'object' || spec.value === null || Array.isArray(spec.value)) return undefined;
  const value = (spec.value as unknown as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
}

function answerOf(sample: Sample, specs: readonly CheckSpec[] | undefined): ReviewAnswer {
  return {
    item_id: sample.item_id, model: sample.model, repeat: sample.repeat, case_id: sample.case_id, thread_id: sample.thread_id, turn: sample.turn,
    tags: sample.tags ?? [], prompt: sample.prompt ?? '', text: sample.text, outcome: sample.outcome, error: sample.error?.message ?? null,
    pass: sample.pass, not_judged: sample.not_judged ?? null, earlier: [],
    checks: sample.checks.map((check, i) => {
      const spec = specs?.[i]?.type === check.type ? specs[i] : undefined;
      const rubric = specText(spec, 'rubric');
      const reference = specText(spec, 'reference');
      return {
        id: checkIdOf(i, check), type: check.type, pass: check.pass, detail: check.not_judged ?? check.detail,
        ...(check.grader ? { grader: check.grader } : {}), ...(rubric ? { rubric } : {}), ...(reference ? { reference } : {}),
      };
    }),
  };
}

/** Orders answers as a reader goes: by model, then case or thread and turn, then repeat. */
function order(a: ReviewAnswer, b: ReviewAnswer): number {
  const key = (x: ReviewAnswer): string => `${x.model}\u0000${x.case_id ?? `~${x.thread_id}`}`;
  return key(a).localeCompare(key(b)) || (a.turn ?? 0) - (b.turn ?? 0) || a.repeat - b.repeat;
}

/** Every answered request of the run (warmups left out), with the earlier turns of its thread linked. */
export async function readRunAnswers(runDir: string, run: RunInfo): Promise<RunAnswers> {
  const index = specIndex(await suiteOf(run));
  const samples = new Map<string, Sample>();
  const specs = new Map<string, readonly CheckSpec[]>();
  const answers: ReviewAnswer[] = [];
  for await (const sample of readResults(runDir)) {
    if (sample.warmup || sample.outcome === 'skipped') continue;
    const itemSpecs = index.get(specKey(sample));
    if (itemSpecs) specs.set(sample.item_id, itemSpecs);
    samples.set(sample.item_id, sample);
    answers.push(answerOf(sample, itemSpecs));
  }
  // A resumed run may hold an item twice: the last line is the answer (as reports count it).
  const unique = [...new Map(answers.map((a) => [a.item_id, a])).values()].sort(order);
  const turns = new Map<string, number[]>();
  unique.forEach((a, index) => {
    if (a.thread_id === null) return;
    const key = `${a.thread_id}\u0000${a.model}\u0000${a.repeat}`;
    const earlier = turns.get(key) ?? [];
    a.earlier = [...earlier];
    earlier.push(index);
    turns.set(key, earlier);
  });
  return { samples, answers: unique, specs };
}
