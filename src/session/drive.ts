// Drives the runner: every result appended to results.ndjson (and counted only once it is there),
// progress reported, and how the run ended.
import { join } from 'node:path';
import type { KbClient } from '../client/index.js';
import { createRedactor } from '../client/redact.js';
import { fromUnits, sampleCreditUnits, toUnits } from '../credits/units.js';
import type { RunStatus } from '../domain/run.js';
import type { Sample } from '../domain/sample.js';
import { startRun, type RunEvent, type StopReason, type UnitSource } from '../runner/index.js';
import { ResultsFile } from '../store/results-file.js';
import { RUN_FILES } from '../store/run-dir.js';
import { judgePort } from './judge-port.js';
import { redactSample } from './redact-sample.js';
import type { RunSessionOptions } from './options.js';
import type { ResolvedTarget } from './target.js';

export interface ProgressInfo {
  done: number;
  total: number;
  errors: number;
  creditsUsed: number;
}

export interface DriveHooks {
  stop: AbortSignal;
  abort: AbortSignal;
  onProgress?(progress: ProgressInfo, sample: Sample): void;
  onStopping?(reason: StopReason, detail: string): void;
}

export interface DriveOutcome {
  status: RunStatus;
  /** Spent by requests without a result line (replayed turns), in 1e-5 units. */
  unrecordedUnits: number;
  stopReason?: string;
  dropped: number;
  failure?: unknown;
}

export interface DriveCounts {
  total: number;
  /** Results already in the file (a resume). */
  done: number;
  /** What those results spent, in 1e-5 units. */
  previousUnits: number;
}

function openLoopOf(options: RunSessionOptions) {
  if (options.rate === undefined || options.durationMs === undefined) return {};
  return { open: { ratePerS: options.rate, durationMs: options.durationMs, maxInFlight: options.maxInFlight ?? Math.max(options.concurrency, 64) } };
}

export async function drive(
  source: UnitSource, options: RunSessionOptions, hooks: DriveHooks, client: KbClient, target: ResolvedTarget, runDir: string, counts: DriveCounts,
): Promise<DriveOutcome> {
  const results = new ResultsFile(join(runDir, RUN_FILES.results));
  // Both keys: the one sent (the embedded service's, in embedded mode) and the user's own.
  const redact = createRedactor([target.apiKey, options.apiKey]);
  // A result that cannot be written (a full disk) stops the run at once: the requests in flight are
  // cancelled, for their results would have nowhere to go.
  let cancelRun = (): void => undefined;
  results.onFailure = () => cancelRun();
  const handle = startRun(source, {
    client, target: { boardId: target.boardId, chatId: target.chatId }, concurrency: options.concurrency, ...openLoopOf(options),
    timeoutMs: options.timeoutMs, retries: options.retries,
    ...(options.maxRetryWaitMs !== undefined ? { backoff: { maxWaitMs: options.maxRetryWaitMs } } : {}),
    budget: {
      ...(options.maxCredits !== undefined ? { maxCredits: Math.max(0, options.maxCredits - fromUnits(counts.previousUnits)) } : {}),
      ...(options.minRemaining !== undefined ? { minRemaining: options.minRemaining } : {}),
    },
    check: judgePort(client, target, options), stop: hooks.stop, abort: hooks.abort,
  });
  cancelRun = () => handle.cancel();
  const progress: ProgressInfo = { done: counts.done, total: counts.total, errors: 0, creditsUsed: fromUnits(counts.previousUnits) };
  let stop: StopReason | null = null;
  let stopDetail = '';
  let recordedUnits = 0;
  const unrecordedUnits = (): number => Math.max(0, toUnits(handle.ledger.spent) - recordedUnits);
  let dropped = 0;
  // A result counts (progress, credits recorded) only once its line is in the file.
  const counted = (sample: Sample) => (): void => {
    recordedUnits += sampleCreditUnits(sample);
    progress.done += 1;
    if (sample.outcome !== 'ok' && sample.outcome !== 'skipped') progress.errors += 1;
    progress.creditsUsed = fromUnits(counts.previousUnits + toUnits(handle.ledger.spent));
    hooks.onProgress?.(progress, sample);
  };
  try {
    for await (const event of handle.events as AsyncIterable<RunEvent>) {
      if (results.failure) break;
      if (event.type === 'sample') {
        const sample = redactSample(event.sample, redact);
        results.append(sample, counted(sample));
      }
      else if (event.type === 'stopped') {
        stop = event.reason;
        stopDetail = event.detail;
        hooks.onStopping?.(event.reason, event.detail);
      } else dropped += event.count;
    }
  } catch (failure) {
    results.close();
    return { status: 'failed', stopReason: String(failure), dropped, failure, unrecordedUnits: unrecordedUnits() };
  }
  results.close();
  if (results.failure) return { status: 'failed', stopReason: results.failure.message, dropped, failure: results.failure, unrecordedUnits: unrecordedUnits() };
  // Requests cancelled by a hard stop were not recorded: the run is not complete, whatever else finished.
  if (stop === null && hooks.abort.aborted) stop = 'interrupted';
  if (stop === 'budget-exhausted') return { status: 'budget-exhausted', stopReason: stopDetail, dropped, unrecordedUnits: unrecordedUnits() };
  if (stop === 'interrupted') return { status: 'interrupted', stopReason: 'interrupted by a signal', dropped, unrecordedUnits: unrecordedUnits() };
  return { status: 'completed', dropped, unrecordedUnits: unrecordedUnits() };
}
