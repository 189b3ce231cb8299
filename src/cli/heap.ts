// Imported first by main.ts: asks V8 to keep the heap close to what the run holds.
import { setFlagsFromString } from 'node:v8';

/**
 * A load run allocates fast and keeps little (what is in flight). V8's default lets the old
 * generation grow to several times the live set between major collections: the tool's RSS grew
 * with the run, not with what it held. A growth factor of 1.5 keeps it flat (bench/memory-run.mjs:
 * 1,000,000 requests under 150 MB). --optimize-for-size did the same for memory but slowed the code
 * itself: an open loop at 2,000/s then fell behind its schedule by seconds (BENCHMARKS.md).
 */
setFlagsFromString('--heap-growing-percent=50');
