// A sweep's limits apart from its schema (index.ts, zod): `run --help` quotes them without loading zod.
/** Sweeps are capped: each rate is a stage of the run and keeps a few histograms while reports are built. */
export const MAX_SWEEP_RATES = 100;
/** A sweep's probes run this long at most (each rate runs the whole --duration). */
export const SWEEP_PROBE_MAX_MS = 10_000;
/** The saturation probe's workers when --max-in-flight does not say. */
export const SWEEP_SATURATION_WORKERS = 32;
