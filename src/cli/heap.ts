// Imported first by main.ts: asks V8 to size the heap for memory rather than for peak allocation speed.
import { setFlagsFromString } from 'node:v8';

/**
 * A load run allocates fast and keeps little (what is in flight); V8's default heap growth then lets
 * the old generation swell to several times the live set between major collections, which is the
 * tool's RSS growing with the run, not with what it holds. --optimize-for-size keeps that factor
 * small. Measured in bench/memory-run.mjs (BENCHMARKS.md).
 */
setFlagsFromString('--optimize-for-size');
