// A recorded run replayed (`serve --from-run`): each recorded question gets its recorded answer, and
// first-chunk times and chunk gaps are drawn from the run's own timings per model. The CLI reads the
// run directory (store/ owns it) and hands this module plain data: server/ imports only protocol/.
import type { StreamDialect } from '../protocol/index.js';
import { creditsToUnits } from './model-profiles.js';
import type { ModelProfileOverride } from './model-profiles.js';
import { deriveRandom, type Random } from './random.js';
import type { Workspace } from './workspace.js';

/** One answer of the recorded run, as its result line holds it. */
export interface RecordedAnswer {
  model: string;
  prompt: string;
  text: string;
  creditsUsed: number | null;
  creditsRemaining: number | null;
  streaming: boolean;
  dialect?: StreamDialect;
  /** As the recording client measured it, from its request's start. */
  ttfcMs: number | null;
  chunks: number;
  /** results.ndjson keeps each answer's mean gap between chunks, not every gap. */
  gapMeanMs: number | null;
}

export interface Recording {
  runId: string;
  /** The run directory, named where the service says what it replays. */
  dir: string;
  boardId: string;
  chatId: string;
  answers: RecordedAnswer[];
}

/** The key the replay accepts (the recorded run's own key is never recorded). */
export const REPLAY_API_KEY = 'kb-replay-0000-local';

/** Credits the replay's account starts with when no answer says what remained. */
const DEFAULT_BALANCE_CREDITS = 1_000_000;

/**
 * The workspace a replay serves: the recorded board and chat under one account, every recorded model
 * with unlimited slots (the recorded timings already hold the live service's queueing).
 */
export function replayWorkspace(recording: Recording): Workspace {
  const before = recording.answers.map((a) => (a.creditsRemaining ?? 0) + (a.creditsUsed ?? 0));
  const balance = Math.max(DEFAULT_BALANCE_CREDITS, ...before);
  const models: Record<string, ModelProfileOverride> = {};
  for (const answer of recording.answers) models[answer.model] = { slots: 0 };
  const name = `replay of run ${recording.runId}`;
  return {
    file: recording.dir,
    name,
    accounts: [{ id: 'replay', name, key: REPLAY_API_KEY, creditsUnits: creditsToUnits(balance) }],
    boards: [{ id: recording.boardId, name, accountId: 'replay', chats: [{ id: recording.chatId, name, kind: 'answer', boardId: recording.boardId, documents: [], passages: [] }] }],
    models,
    defaultTarget: { boardId: recording.boardId, chatId: recording.chatId },
    knowledgeBase: { sha256: '' },
  };
}

/** Values drawn without replacement in a seeded order, reshuffled once used up: a replay of as many answers reproduces the recorded distribution itself. */
class Deck {
  private order: number[] = [];
  constructor(
    private readonly values: readonly number[],
    private readonly random: Random,
  ) {}

  draw(): number {
    if (this.values.length === 0) return 0;
    if (this.order.length === 0) {
      this.order = this.values.map((_, i) => i);
      for (let i = this.order.length - 1; i > 0; i--) {
        const j = Math.floor(this.random() * (i + 1));
        [this.order[i], this.order[j]] = [this.order[j]!, this.order[i]!];
      }
    }
    return this.values[this.order.pop()!]!;
  }
}

const questionKey = (model: string, prompt: string): string => `${model}\u0000${prompt}`;

/** The recorded answers by question, and per model the decks of first-chunk delays and chunk gaps. */
export class Replay {
  private readonly byQuestion = new Map<string, RecordedAnswer[]>();
  private readonly served = new Map<string, number>();
  private readonly firstChunk = new Map<string, Deck>();
  private readonly gaps = new Map<string, Deck>();

  constructor(
    readonly recording: Recording,
    seed: number,
  ) {
    for (const answer of recording.answers) {
      const key = questionKey(answer.model, answer.prompt);
      this.byQuestion.set(key, [...(this.byQuestion.get(key) ?? []), answer]);
    }
    const random = deriveRandom(seed, 'replay');
    const streamed = recording.answers.filter((a) => a.streaming && a.ttfcMs !== null);
    // The whole recorded time to first chunk, queueing and network included (what the recording's
    // client waited); the replay adds only its own loopback overhead, a millisecond or two.
    const delayOf = (a: RecordedAnswer): number => a.ttfcMs!;
    const gapsOf = (answers: RecordedAnswer[]): number[] => answers.map((a) => a.gapMeanMs).filter((g): g is number => g !== null);
    const models = new Set(recording.answers.map((a) => a.model));
    for (const model of models) {
      const own = streamed.filter((a) => a.model === model);
      this.firstChunk.set(model, new Deck((own.length > 0 ? own : streamed).map(delayOf), random));
      const ownGaps = gapsOf(own);
      this.gaps.set(model, new Deck(ownGaps.length > 0 ? ownGaps : gapsOf(streamed), random));
    }
  }

  /** The recorded answer to this question; repeats of it in the recording are served in turn. */
  answerTo(model: string, prompt: string): RecordedAnswer | undefined {
    const key = questionKey(model, prompt);
    const answers = this.byQuestion.get(key);
    if (answers === undefined) return undefined;
    const served = this.served.get(key) ?? 0;
    this.served.set(key, served + 1);
    return answers[served % answers.length];
  }

  firstChunkDelayMs(model: string): number {
    return this.firstChunk.get(model)?.draw() ?? 0;
  }

  chunkGapMs(model: string): number {
    return this.gaps.get(model)?.draw() ?? 0;
  }
}

/** The recorded text in `count` deltas of whole words (joined, the text exactly). */
export function deltasOf(text: string, count: number): string[] {
  const words = text.split(/(?<=\s)(?=\S)/);
  const n = Math.max(1, Math.min(count, words.length));
  const deltas: string[] = [];
  for (let i = 0; i < n; i++) deltas.push(words.slice(Math.floor((i * words.length) / n), Math.floor(((i + 1) * words.length) / n)).join(''));
  return deltas;
}
