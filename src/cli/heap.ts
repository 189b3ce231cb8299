// Imported first by bin.ts: asks V8 to keep the heap close to what the run holds.
import { setFlagsFromString } from 'node:v8';
import { collectReportSteps } from '../metrics/heap-steps.js';
import { capYoungGeneration } from '../session/young-generation.js';

/**
 * A load run allocates fast and keeps little (what is in flight). V8's default lets the old
 * generation grow to several times the live set between major collections: the tool's RSS grew
 * with the run, not with what it held. A growth factor of 1.5 keeps it flat (bench/memory-run.mjs:
 * 1,000,000 requests under 150 MB). --optimize-for-size did the same for memory but slowed the code
 * itself: an open loop at 2,000/s then fell behind its schedule by seconds (BENCHMARKS.md).
 */
setFlagsFromString('--heap-growing-percent=50');

/**
 * undici parses HTTP with llhttp in WebAssembly. Once the parser is hot, V8 compiles its one large
 * function (33 KB of wasm) again with TurboFan on a background thread: with loop unrolling that
 * compile held 29.5 MB of zone memory for ~0.5 s (--trace-wasm-compilation-times), right at the
 * start of the run, which made the whole run's peak RSS; without it 20 MB and less than half the
 * compile time. The parser's loop is a state machine's dispatch, which unrolling does not speed up.
 */
setFlagsFromString('--no-wasm-loop-unrolling');

/** The young generation stays at two 4 MB semi-spaces (session/young-generation.ts says why). */
capYoungGeneration();

/** A full collection between the report phase's steps (metrics/heap-steps.ts says why). */
collectReportSteps();
