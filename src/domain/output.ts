// What a live-metrics output (src/outputs/) says about itself when the run ends: run.json and
// summary.json `outputs`, and the console's line per output.

/** The kinds of live-metrics output; each has its factory in src/outputs/registry.ts. */
export const OUTPUT_KINDS = ['prometheus-rw', 'otlp'] as const;
export type OutputKind = (typeof OUTPUT_KINDS)[number];

/** `--output NAME=URL` (or the suite's `load.outputs`), parsed: the URL without user or password. */
export interface OutputSpec {
  kind: OutputKind;
  url: string;
}

export interface OutputReport {
  kind: OutputKind;
  /** The endpoint, user and password removed. */
  url: string;
  /** Batches the endpoint accepted, and the samples (data points) in them. */
  sent_batches: number;
  sent_samples: number;
  /** Batches given up: the queue was full, the endpoint refused or failed them, or stop's deadline came first. */
  dropped_batches: number;
  /** Failed sends (a refused batch, a network error, a timeout), and the first one's words. */
  errors: number;
  first_error: string | null;
}
