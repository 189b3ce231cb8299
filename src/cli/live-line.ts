// The live line of a time-bound run on stderr, once per second: the schedule's target now, then the
// last 10 s (achieved rate, p95, TTFC p95, errors), in flight against the cap, starts held back. On a terminal it rewrites itself in place; in a log it is a line a second.
import type { LiveInterval } from '../metrics/interval-recorder.js';

/**
 * `12s · target now 50.0/s · last 10s: achieved 41.6/s, corrected p95 1,234 ms, TTFC p95 310 ms, 0 errors · in flight 64/64 · held back 12 · dropped 3`:
 * the target is the schedule's own at this second; the rest is a trailing mean over the last seconds
 * (in-flight requests count in the p95 with their wait so far).
 */
export function formatLiveLine(live: LiveInterval, elapsedS: number): string {
  const rate = (r: number | null): string => (r === null ? '–' : r.toFixed(1));
  const ms = (v: number | null): string => (v === null ? '–' : `${Math.round(v).toLocaleString('en-US')} ms`);
  const which = live.p95_metric === 'corrected_latency_ms' ? 'corrected p95' : 'p95';
  const target = live.workers_target !== undefined && live.workers_target !== null
    ? `workers now ${live.workers_target}`
    : live.target_rate !== null ? `target now ${rate(live.target_rate)}/s` : '';
  const head = [`${Math.round(elapsedS)}s`, live.phase ? `sweep ${live.phase}` : '', target].filter(Boolean).join(' · ');
  const recent = `last ${live.seconds}s: achieved ${rate(live.achieved_rate)}/s, ${which} ${ms(live.p95_ms)}, TTFC p95 ${ms(live.ttfc_p95_ms)}, ${live.errors} errors`;
  const cap = live.max_in_flight !== undefined && live.max_in_flight !== null ? `/${live.max_in_flight}` : '';
  const tail = [
    `in flight ${live.in_flight}${cap}`,
    live.held !== null && live.held > 0 ? `held back ${live.held}` : '',
    live.dropped > 0 ? `${live.dropped} dropped` : '',
  ].filter(Boolean).join(' · ');
  return `${head} · ${recent} · ${tail}`;
}

export interface LiveView {
  /** False until an open-loop second arrives: a closed loop keeps its progress bar. */
  readonly active: boolean;
  update(live: LiveInterval): void;
  stop(): void;
}

export function createLiveView(stream: NodeJS.WriteStream, enabled: boolean, onActivate: () => void): LiveView {
  let active = false;
  let seconds = 0;
  let drawn = false;
  return {
    get active() {
      return active;
    },
    update(live) {
      // A time-bound loop's progress is its rate, not a count to a total: the live line replaces the bar.
      if (!enabled || (live.line.target_rate === null && live.time_bound !== true && !active)) return;
      if (!active) {
        active = true;
        onActivate();
      }
      seconds += 1;
      const text = formatLiveLine(live, seconds);
      if (stream.isTTY) {
        stream.write(`\r\x1b[K${text}`);
        drawn = true;
      } else stream.write(`live: ${text}\n`);
    },
    stop() {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}
