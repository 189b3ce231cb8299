// A synthetic traffic log from a suite, for teams without one: arrivals follow a daily shape
// (`diurnal`: a day's rise and fall compressed into the duration; `bursty`: a quiet base with
// bursts), seeded so the same flags write the same log. Threads arrive as conversations whose later
// turns come a think time apart. Written as a stream: memory ∝ conversations still open.
import { createRandom } from '../domain/random.js';
import type { Suite } from '../domain/suite.js';
import type { TrafficLine } from './from-run.js';

export const TRAFFIC_SHAPES = ['diurnal', 'bursty'] as const;
export type TrafficShape = (typeof TRAFFIC_SHAPES)[number];

export interface GenerateOptions {
  shape: TrafficShape;
  seed: number;
  durationMs: number;
  /** Mean arrivals (new questions or conversations) per second over the duration. */
  ratePerS: number;
  /** Mean recorded gap between a conversation's turns. */
  thinkMs?: number;
}

const DEFAULT_THINK_MS = 20_000;

/** The rate at a fraction `x` of the duration, relative to the mean (its mean over [0, 1) is 1). */
export function shapeFactor(shape: TrafficShape, x: number): number {
  if (shape === 'diurnal') return 1 - Math.cos(2 * Math.PI * x) * 0.8; // night low, midday high
  // Bursty: a base of 0.5, ten bursts of 5.5× lasting a tenth of each tenth (mean 0.5 + 0.1·5 = 1).
  return (x * 10) % 1 < 0.1 ? 5.5 : 0.5;
}

const PEAK: Record<TrafficShape, number> = { diurnal: 1.8, bursty: 5.5 };

interface Pending {
  atMs: number;
  line: TrafficLine;
}

function pushSorted(queue: Pending[], item: Pending): void {
  let i = queue.length;
  while (i > 0 && queue[i - 1]!.atMs > item.atMs) i -= 1;
  queue.splice(i, 0, item);
}

/** The log's lines in order of `at`: arrivals by thinning a Poisson process at the shape's peak rate. */
export function* generateTraffic(suite: Suite, options: GenerateOptions): Generator<TrafficLine> {
  const random = createRandom(options.seed);
  const sources = suite.cases.length + suite.threads.length;
  if (sources === 0) return;
  const thinkMs = options.thinkMs ?? DEFAULT_THINK_MS;
  const peakPerMs = (options.ratePerS * PEAK[options.shape]) / 1000;
  const pending: Pending[] = [];
  let conversations = 0;
  let tMs = 0;
  for (;;) {
    tMs += -Math.log(1 - random()) / peakPerMs;
    const arrives = tMs < options.durationMs;
    // Turns due before the next arrival (or the end) go first, so lines stay in order of `at`.
    while (pending.length > 0 && (!arrives || pending[0]!.atMs <= tMs)) {
      const next = pending.shift()!;
      if (next.atMs < options.durationMs) yield next.line;
    }
    if (!arrives) return;
    if (random() * PEAK[options.shape] > shapeFactor(options.shape, tMs / options.durationMs)) continue;
    const pick = Math.floor(random() * sources);
    const at = Math.round(tMs) / 1000;
    if (pick < suite.cases.length) {
      const c = suite.cases.at(pick)!;
      yield { at, prompt: c.prompt, source: c.id };
      continue;
    }
    const thread = suite.threads[pick - suite.cases.length]!;
    conversations += 1;
    const conversation = `${thread.id}-${conversations}`;
    let turnAtMs = tMs;
    for (const [i, turn] of thread.turns.entries()) {
      if (i > 0) turnAtMs += -Math.log(1 - random()) * thinkMs;
      pushSorted(pending, { atMs: turnAtMs, line: { at: Math.round(turnAtMs) / 1000, prompt: turn.prompt, conversation, source: `${thread.id}/${turn.turn}` } });
    }
  }
}
