// The live-metrics outputs by kind (`--output NAME=URL`): how to add one is at the top of output.ts.
import type { OutputKind, OutputSpec } from '../domain/output.js';
import type { Output, OutputContext, OutputFactory } from './output.js';
import { otlpOutput } from './otlp/output.js';
import { prometheusRemoteWrite } from './prometheus/output.js';

export const OUTPUTS: Record<OutputKind, OutputFactory> = {
  'prometheus-rw': prometheusRemoteWrite,
  otlp: (url, ctx) => otlpOutput(url, ctx),
};

/** The run's outputs from their specs (already checked by parseOutputSpec). */
export function createOutputs(specs: readonly OutputSpec[], ctx: OutputContext): Output[] {
  return specs.map((spec) => OUTPUTS[spec.kind](new URL(spec.url), ctx));
}
