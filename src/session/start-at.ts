// `--start-at <ISO time>`: every shard (pod, CI job, process) starts its run at one wall-clock
// instant. The wall clock only finds the instant; once there, every duration is monotonic again.
import { InputError } from '../domain/errors.js';
import { monotonicMs, sleep } from '../runner/clock.js';

/**
 * How late a shard may reach the instant and still start: its first starts go at once (recorded
 * late, so corrected latency shows it). Later than this, the shards would not run side by side, so
 * the run refuses (exit 2) before sending anything. NTP keeps machines within milliseconds; a pod
 * that starts seconds late is a lead time chosen too short, which the user should hear about.
 */
export const START_AT_TOLERANCE_MS = 1000;
/** Further ahead than this is a typo (a wrong day) more likely than a plan. */
export const START_AT_MAX_AHEAD_MS = 24 * 3_600_000;

/**
 * The wall clock, read only to find a --start-at instant (an agreement between machines, which only
 * the wall clock can express); never for a duration.
 */
// eslint-disable-next-line no-restricted-properties -- the one reading of the wall clock, see above
export const wallClockMs = (): number => Date.now();

/** A full date and time with its zone: an instant every machine reads the same, whatever its TZ. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i;

/** The instant (epoch ms); an InputError when unparsable, without a zone, past, or over a day ahead. */
export function parseStartAt(text: string, wallNowMs: number): number {
  const value = text.trim();
  const atMs = ISO_INSTANT.test(value) ? Date.parse(value) : NaN;
  if (!Number.isFinite(atMs)) {
    throw new InputError(`"${text}" is not an ISO 8601 instant with a zone, e.g. 2026-11-23T02:00:00Z or 2026-11-23T03:00:00+01:00`, { field: '--start-at' });
  }
  checkNotLate(text, atMs, wallNowMs);
  if (atMs - wallNowMs > START_AT_MAX_AHEAD_MS) {
    throw new InputError(`${text} is more than a day ahead (${describeMs(atMs - wallNowMs)}); is the date right?`, { field: '--start-at' });
  }
  return atMs;
}

function checkNotLate(text: string, atMs: number, wallNowMs: number): void {
  const lateMs = wallNowMs - atMs;
  if (lateMs > START_AT_TOLERANCE_MS) {
    throw new InputError(
      `${text} passed ${describeMs(lateMs)} ago (a shard may be at most ${START_AT_TOLERANCE_MS / 1000}s late); ` +
        'give an instant far enough ahead for every shard to be ready, e.g. $(date -u -d "+2 min" +%Y-%m-%dT%H:%M:%SZ)',
      { field: '--start-at' },
    );
  }
}

const describeMs = (ms: number): string => (ms >= 120_000 ? `${Math.round(ms / 60_000)} min` : `${(ms / 1000).toFixed(1)}s`);

export interface StartAtWait {
  /** Wall-clock epoch ms (Date.now); read only to find the instant. */
  wallNowMs?: () => number;
  /** A stop (Ctrl-C) ends the wait at once; the run then stops before its first start. */
  signal?: AbortSignal;
}

/**
 * Waits until the instant, re-reading the wall clock after each sleep (it may be stepped meanwhile).
 * Throws the InputError of a past instant when the shard got here too late (it sent nothing yet).
 */
export async function waitForStartAt(text: string, { wallNowMs = wallClockMs, signal }: StartAtWait = {}): Promise<void> {
  const atMs = parseStartAt(text, wallNowMs());
  for (let leftMs = atMs - wallNowMs(); leftMs > 0; leftMs = atMs - wallNowMs()) {
    if (!(await sleep(Math.min(leftMs, 60_000), signal))) return;
  }
}

/**
 * Waits for the next whole second of the timeline's clock (performance.timeOrigin + monotonic, as
 * the interval recorder counts seconds), so an open loop's stages, whole seconds long, begin and
 * end between two timeline lines and each stage's starts are counted exactly, not give or take
 * the second straddling a boundary.
 */
export async function waitForWholeSecond(signal?: AbortSignal): Promise<void> {
  const intoSecondMs = (performance.timeOrigin + monotonicMs()) % 1000;
  await sleep(1000 - intoSecondMs, signal);
}
