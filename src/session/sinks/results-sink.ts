// The results file as a sink: every result appended to results.ndjson before any other sink sees
// it, and counted (onRecorded) only once its line is in the file; a failed write stops the run.
import { join } from 'node:path';
import type { Sample } from '../../domain/sample.js';
import type { RunEvent } from '../../runner/index.js';
import { ResultsFile } from '../../store/results-file.js';
import { RUN_FILES } from '../../store/run-dir.js';
import type { RunControl, RunSink, SinkOutcome } from './sink.js';

export function resultsSink(runDir: string, control: Pick<RunControl, 'fail'>, recorded: (sample: Sample) => void): RunSink {
  const results = new ResultsFile(join(runDir, RUN_FILES.results));
  // A result that cannot be written (a full disk) stops the run at once: the requests in flight are
  // cancelled, for their results would have nowhere to go.
  results.onFailure = () => control.fail();
  return {
    name: 'results',
    onEvent(event: RunEvent): void {
      if (event.type !== 'sample') return;
      const { sample } = event;
      results.append(sample, () => recorded(sample));
    },
    close(): SinkOutcome {
      results.close();
      return results.failure ? { failure: results.failure } : {};
    },
  };
}
