// The live-metrics outputs by kind (`--output NAME=URL`): how to add one is at the top of output.ts.
// Each kind's module is imported when a run asks for it: OpenTelemetry's SDK and protobufjs are
// heavy (a third of a plain run's start-up), and most runs send to neither.
import type { OutputKind, OutputReport, OutputSpec } from '../domain/output.js';
import { displayUrl } from './batch-queue.js';
import type { ClosedSecond, Output, OutputContext, OutputFactory } from './output.js';

export type OutputLoader = () => Promise<OutputFactory>;

export const OUTPUTS: Record<OutputKind, OutputLoader> = {
  'prometheus-rw': async () => (await import('./prometheus/output.js')).prometheusRemoteWrite,
  otlp: async () => {
    const { otlpOutput } = await import('./otlp/output.js');
    return (url, ctx) => otlpOutput(url, ctx);
  },
};

/**
 * An output whose module is still loading: start() begins the import, the seconds closed meanwhile
 * wait in order (a handful: an import takes milliseconds, a second is a second) and go to it once
 * it is there. The run's calls stay synchronous, as for any output.
 */
export function lazyOutput(kind: OutputKind, load: OutputLoader, url: URL, ctx: OutputContext): Output {
  let real: Output | undefined;
  let failure: OutputReport | undefined;
  let started = false;
  let pending: ClosedSecond[] = [];
  let loading: Promise<void> | undefined;
  const fail = (error: unknown): void => {
    // Said in the output's report like any failed send; the run itself goes on.
    failure = {
      kind, url: displayUrl(url), sent_batches: 0, sent_samples: 0, dropped_batches: pending.length, errors: 1,
      first_error: `could not start the ${kind} output: ${error instanceof Error ? error.message : String(error)}`,
    };
    pending = [];
  };
  const begin = (): Promise<void> =>
    (loading ??= load().then((factory) => {
      try {
        const output = factory(url, ctx);
        if (started) output.start();
        for (const second of pending) output.second(second);
        pending = [];
        real = output;
      } catch (error) {
        fail(error);
      }
    }, fail));
  return {
    kind,
    start(): void {
      started = true;
      void begin();
    },
    second(second: ClosedSecond): void {
      if (real) real.second(second);
      else if (failure) failure.dropped_batches += 1;
      else pending.push(second);
    },
    async stop(deadlineMs: number): Promise<OutputReport | null> {
      await begin();
      return real ? real.stop(deadlineMs) : (failure ?? null);
    },
  };
}

const loaded = new Map<OutputKind, OutputFactory>();

/**
 * Imports the modules of these outputs. The session awaits it before the run's clock starts: an
 * import is tens of milliseconds of CPU, which on the event loop of a running schedule would delay
 * planned starts (and count them dropped on a busy machine).
 */
export async function loadOutputs(specs: readonly OutputSpec[]): Promise<void> {
  await Promise.all(specs.map(async (spec) => {
    if (!loaded.has(spec.kind)) loaded.set(spec.kind, await OUTPUTS[spec.kind]());
  }));
}

/** The run's outputs from their specs (already checked by parseOutputSpec): loaded ones at once, others as they load. */
export function createOutputs(specs: readonly OutputSpec[], ctx: OutputContext): Output[] {
  return specs.map((spec) => {
    const factory = loaded.get(spec.kind);
    return factory ? factory(new URL(spec.url), ctx) : lazyOutput(spec.kind, OUTPUTS[spec.kind], new URL(spec.url), ctx);
  });
}
