// The run's progress for whoever shows it (only cli/ prints): a result counts once its line is in
// results.ndjson (done, errors, credits used); the runner's stop and a sweep's rates are passed on.
import { fromUnits, sampleCreditUnits, toUnits } from '../../credits/units.js';
import type { Sample } from '../../domain/sample.js';
import type { RunEvent, StopReason } from '../../runner/index.js';
import type { RunSink, SinkOutcome } from './sink.js';

export interface ProgressInfo {
  done: number;
  total: number;
  errors: number;
  creditsUsed: number;
}

export type SweepEvent = Extract<RunEvent, { type: 'sweep' }>;

export interface ProgressHooks {
  onProgress?(progress: ProgressInfo, sample: Sample): void;
  onStopping?(reason: StopReason, detail: string): void;
  /** A sweep's probes are done: its rates begin (run.json records them). */
  onSweep?(sweep: SweepEvent): void;
}

export interface ProgressCounts {
  total: number;
  /** Results already in the file (a resume). */
  done: number;
  /** What those results spent, in 1e-5 units. */
  previousUnits: number;
}

/** `ledger`: what the run's requests spent so far (the runner's CreditLedger), recorded or not. */
export function progressSink(counts: ProgressCounts, ledger: { readonly spent: number }, hooks: ProgressHooks): RunSink {
  const progress: ProgressInfo = { done: counts.done, total: counts.total, errors: 0, creditsUsed: fromUnits(counts.previousUnits) };
  let recordedUnits = 0;
  return {
    name: 'progress',
    onEvent(event: RunEvent): void {
      if (event.type === 'stopped') hooks.onStopping?.(event.reason, event.detail);
      else if (event.type === 'sweep') hooks.onSweep?.(event);
    },
    onRecorded(sample: Sample): void {
      recordedUnits += sampleCreditUnits(sample);
      progress.done += 1;
      if (sample.outcome !== 'ok' && sample.outcome !== 'skipped') progress.errors += 1;
      progress.creditsUsed = fromUnits(counts.previousUnits + toUnits(ledger.spent));
      hooks.onProgress?.(progress, sample);
    },
    // After the results file's close: its last lines have counted.
    close: (): SinkOutcome => ({ unrecordedUnits: Math.max(0, toUnits(ledger.spent) - recordedUnits) }),
  };
}
