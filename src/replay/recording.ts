// A recorded run as `serve --from-run` replays it: run.json's target and the answers of its
// results.ndjson, read through store/ (the owner of a run directory) and handed to the reference
// service as plain data (server/ imports only protocol/).
import { InputError } from '../domain/errors.js';
import type { Sample } from '../domain/sample.js';
import { STREAM_DIALECTS, type StreamDialect } from '../protocol/index.js';
import type { RecordedAnswer, Recording } from '../server/index.js';
import { readResults } from '../store/results-reader.js';
import { assertRunDir } from '../store/run-dir.js';

const dialectOf = (name: string | undefined): StreamDialect | undefined =>
  (STREAM_DIALECTS as readonly string[]).includes(name ?? '') ? (name as StreamDialect) : undefined;

/** An answer the service gave (outcome ok, with the prompt that asked it); failures are not replayed. */
export function recordedAnswerOf(sample: Sample): RecordedAnswer | undefined {
  if (sample.outcome !== 'ok' || sample.prompt === undefined) return undefined;
  const dialect = sample.streaming ? dialectOf(sample.stream_dialect) : undefined;
  return {
    model: sample.model,
    prompt: sample.prompt,
    text: sample.text,
    creditsUsed: sample.credits_used,
    creditsRemaining: sample.credits_remaining,
    streaming: sample.streaming,
    ...(dialect ? { dialect } : {}),
    ttfcMs: sample.ttfc_ms,
    chunks: sample.chunks,
    gapMeanMs: sample.gap_mean_ms,
  };
}

export async function readRecording(dir: string): Promise<Recording> {
  const info = assertRunDir(dir, '--from-run');
  const answers: RecordedAnswer[] = [];
  for await (const sample of readResults(dir)) {
    const answer = recordedAnswerOf(sample);
    if (answer) answers.push(answer);
  }
  if (answers.length === 0) throw new InputError(`run ${info.run_id} holds no answer to replay (no result line with outcome ok and its prompt)`, { file: dir, field: '--from-run' });
  return { runId: info.run_id, dir, boardId: info.target.board_id, chatId: info.target.chat_id, answers };
}
