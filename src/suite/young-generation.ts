// Reading a large YAML suite keeps what it builds (the suite) while it throws away far more (each
// run of items' Document): V8 then grows its young generation to its largest (2 × 16 MB) and the
// read's peak RSS with it. Holding the young generation at its starting size while a suite is read
// took 100k one-turn threads from 176-218 MB to 148 MB peak (bench/memory-yaml.mjs), for ~30% more
// CPU in the read; the run afterwards grows it again as before (its hot path wants it large).
import { setFlagsFromString } from 'node:v8';

/** V8's own default (src/flags/flag-definitions.h): the young generation doubles when it grows. */
const DEFAULT_GROWTH_FACTOR = 2;

let holders = 0;

/**
 * Keeps the young generation from growing until the returned function is called (holds nest: it
 * grows again once the last is released). `kbbench validate` holds it for the whole command: its
 * printing of a large plan would otherwise grow it to the full 32 MB too.
 */
export function holdSmallYoungGeneration(): () => void {
  if (holders++ === 0) setFlagsFromString('--semi-space-growth-factor=1');
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--holders === 0) setFlagsFromString(`--semi-space-growth-factor=${DEFAULT_GROWTH_FACTOR}`);
  };
}

/** Runs `read` with the young generation kept from growing, and lets it grow again after. */
export function withSmallYoungGeneration<T>(read: () => T): T {
  const release = holdSmallYoungGeneration();
  try {
    return read();
  } finally {
    release();
  }
}
