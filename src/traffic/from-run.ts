// `kbbench traffic RUN_DIR`: a run's requests as a traffic log, so a run (a pilot, last week's load
// test) can be replayed as it happened: each request at its instant, in its conversation.
import type { Sample } from '../domain/sample.js';
import { readResults } from '../store/results-reader.js';

/** One line of a traffic log, in the fields `--traffic` reads (load/kinds/traffic/record.ts). */
export interface TrafficLine {
  at: number;
  prompt: string;
  conversation?: string;
  model?: string;
  source?: string;
}

/** The instant a request was meant to start (its schedule's, in an open loop), in seconds from the run's start. */
function atOf(sample: Sample): number {
  const lateMs = sample.scheduled_delay_ms ?? 0;
  return Math.max(0, Math.round(sample.offset_ms - lateMs)) / 1000;
}

/** A sample as a log line; null for a line with nothing to ask again (a `create`, a turn never sent, a prompt not recorded). */
export function lineOfSample(sample: Sample): TrafficLine | null {
  if (sample.endpoint === 'create' || sample.prompt === undefined || sample.prompt === '') return null;
  if (sample.outcome === 'skipped') return null;
  const line: TrafficLine = { at: atOf(sample), prompt: sample.prompt };
  // One conversation instance: the service's id tells apart the passes of a thread in a time-bound loop.
  if (sample.thread_id !== null) line.conversation = sample.conversation_id ?? (sample.repeat > 1 ? `${sample.thread_id}#${sample.repeat}` : sample.thread_id);
  if (sample.model !== 'default') line.model = sample.model;
  line.source = sample.item_id;
  return line;
}

/**
 * The run's requests in the order they were meant to start. results.ndjson is in the order answers
 * finished, so the lines are sorted: this holds one short line per request (a log of a run, not of
 * production; a 1M-request run is ~100 MB here).
 */
export async function* trafficOfRun(runDir: string): AsyncGenerator<string> {
  const lines: { at: number; turn: number; text: string }[] = [];
  for await (const sample of readResults(runDir)) {
    const line = lineOfSample(sample);
    if (line !== null) lines.push({ at: line.at, turn: sample.turn ?? 0, text: JSON.stringify(line) });
  }
  // Turns of one thread sent at the same instant keep their order.
  lines.sort((a, b) => a.at - b.at || a.turn - b.turn);
  for (const line of lines) yield line.text;
}
