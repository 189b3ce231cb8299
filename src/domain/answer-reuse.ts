// What a run asks of earlier runs' answers (--reuse-answers): the runner takes them by question key, store/answer-index.ts holds them.
import type { Sample } from './sample.js';

/** A stored answer: its result line (checks left out: they are judged again) and the run that asked for it. */
export interface StoredAnswer {
  run_id: string;
  line: Sample;
}

/** Hands out each stored answer once; null when none answers (the request is then asked). */
export interface AnswerReuse {
  /** A case's answer, by its question key. */
  takeAnswer(questionKey: string): StoredAnswer | null;
  /** A whole thread's answers, by its turns' question keys, from one recorded conversation; null unless every turn has one. */
  takeThread(questionKeys: readonly string[]): StoredAnswer[] | null;
}
