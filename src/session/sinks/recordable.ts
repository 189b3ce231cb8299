// What drive adds to the runner's events before any sink sees them: a result as it is recorded,
// marked warmup (within --warmup, or a sweep's probes) and scrubbed of every credential the run knows.
import { createRedactor, type Redactor } from '../../client/redact.js';
import type { Sample } from '../../domain/sample.js';
import type { RunEvent } from '../../runner/index.js';
import { probedOf } from '../../load/index.js';
import { specOf } from '../../config/load-section.js';
import type { RunConfig } from '../../config/run-config.js';
import { redactSample, runCredentials } from '../redact-sample.js';

/** The run's one redactor: the key sent (the embedded service's, in embedded mode), the user's own, and `credentials` (else the config's). */
export function runRedactor(config: Pick<RunConfig, 'target' | 'grader' | 'outputs'>, sentKey: string, credentials?: readonly string[]): Redactor {
  return createRedactor([sentKey, ...(credentials ?? runCredentials(config, {}))]);
}

/** A request started within --warmup is marked so statistics and thresholds leave it out. */
function markWarmup(sample: Sample, warmupMs: number | undefined): Sample {
  return warmupMs !== undefined && sample.offset_ms < warmupMs ? { ...sample, warmup: true } : sample;
}

/** What recording reads of the run's config: its --warmup, and whether its load begins with probes (a sweep). */
export interface RecordingConfig {
  warmupMs?: number;
  probed: boolean;
}

/** The one place recording reads the run's config. */
export function recordingConfigOf(config: Pick<RunConfig, 'load' | 'placement'>): RecordingConfig {
  const spec = specOf(config);
  return { probed: probedOf(spec) !== null, ...(spec.warmupMs !== undefined ? { warmupMs: spec.warmupMs } : {}) };
}

/**
 * The runner's events as the sinks get them. A result's event is new only when its result changed
 * (marked or redacted, already a copy); the other events pass as they came.
 */
export function recordableEvents(config: RecordingConfig, redact: Redactor): (event: RunEvent) => RunEvent {
  const { warmupMs } = config;
  // A sweep's probe results come before its 'sweep' event: recorded as warmup, out of its figures.
  let probing = config.probed;
  return (event) => {
    if (event.type === 'sweep') probing = false;
    if (event.type !== 'sample') return event;
    const marked = probing ? { ...event.sample, warmup: true as const } : markWarmup(event.sample, warmupMs);
    const sample = redactSample(marked, redact);
    return sample === event.sample ? event : { type: 'sample', sample };
  };
}
