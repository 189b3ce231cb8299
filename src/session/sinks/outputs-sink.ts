// The run's per-second fan-out as a sink: timeline.ndjson, the console's live line and every
// `--output` (outputs/run-outputs.ts owns them); its reports are redacted, its failed write stops the run.
import type { Redactor } from '../../client/redact.js';
import type { LoadSpec } from '../../domain/load.js';
import type { OutputReport, OutputSpec } from '../../domain/output.js';
import type { LiveInterval } from '../../metrics/interval-recorder.js';
import { loadOutputs, type OutputContext } from '../../outputs/index.js';
import { startRunOutputs } from '../../outputs/run-outputs.js';
import type { RunEvent } from '../../runner/index.js';
import { specOf } from '../../config/load-section.js';
import type { RunConfig } from '../../config/run-config.js';
import { loadShapeOf, type LoadShape } from '../load-shape.js';
import { startLoopDelayProbe } from '../loop-delay.js';
import type { RunControl, RunSink, SinkOutcome } from './sink.js';

/** What the outputs read of the run's config: its load, its intended starts per second, its `--output`s. */
export interface OutputsConfig {
  spec: LoadSpec;
  shape: Pick<LoadShape, 'targetRateAt'> | null;
  outputs?: readonly OutputSpec[];
}

/** The one place the outputs read the run's config. */
export function outputsConfigOf(config: Pick<RunConfig, 'load' | 'placement' | 'outputs'>): OutputsConfig {
  return { spec: specOf(config), shape: loadShapeOf(config), ...(config.outputs.live ? { outputs: config.outputs.live } : {}) };
}

export interface OutputsSinkInput {
  runDir: string;
  runStartMs: number;
  /** When the run began, if its clock goes on from an earlier t0 (a resumed replay: runner/run.ts `clockStartMs`). */
  openedAtMs?: number;
  /** Who the run is, for the outputs' labels (absent: no `--output` is started). */
  outputContext?: OutputContext;
  onInterval?(live: LiveInterval): void;
  redact: Redactor;
}

/** The `--output` modules, imported on demand (src/outputs/registry.ts): before the clock starts. */
export async function prepareOutputs(config: Pick<OutputsConfig, 'outputs'>, outputContext: OutputContext | undefined): Promise<void> {
  if (outputContext && config.outputs?.length) await loadOutputs(config.outputs);
}

function redactReports(reports: OutputReport[], redact: Redactor): OutputReport[] {
  return reports.map((r) => (r.first_error === null ? r : { ...r, first_error: redact(r.first_error) }));
}

export function outputsSink(config: OutputsConfig, run: OutputsSinkInput, control: Pick<RunControl, 'fail'>): RunSink {
  const timeline = startRunOutputs({
    runDir: run.runDir, runStartMs: run.runStartMs, ...(run.openedAtMs !== undefined ? { openedAtMs: run.openedAtMs } : {}), spec: config.spec, shape: config.shape, loopDelay: startLoopDelayProbe(),
    ...(config.outputs ? { outputs: config.outputs } : {}), ...(run.outputContext ? { outputContext: run.outputContext } : {}),
    ...(run.onInterval ? { onInterval: run.onInterval } : {}),
  });
  timeline.onFailure(() => control.fail());
  return {
    name: 'outputs',
    onEvent(event: RunEvent): void {
      if (event.type === 'sample') timeline.sample(event.sample);
      else if (event.type === 'sweep') timeline.sweep(event);
      else timeline.record(event);
    },
    async close(): Promise<SinkOutcome> {
      // A receiver's error words (a body, a reason phrase) came from outside: they may echo a credential.
      const outputs = redactReports(await timeline.close(), run.redact);
      const failure = timeline.failure();
      return { outputs, ...(failure ? { failure } : {}) };
    },
  };
}
