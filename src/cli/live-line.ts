// The live line of an open-loop run on stderr, once per second: target and achieved rate, in flight,
// p95 of the last 10 s, errors. On a terminal it rewrites itself in place; in a log it is a line a second.
import type { LiveInterval } from '../metrics/interval-recorder.js';

export function formatLiveLine(live: LiveInterval, elapsedS: number): string {
  const rate = (r: number | null): string => (r === null ? '–' : r.toFixed(1));
  const p95 = live.p95_ms === null ? '–' : `${Math.round(live.p95_ms).toLocaleString('en-US')} ms`;
  const which = live.p95_metric === 'corrected_latency_ms' ? 'corrected p95' : 'p95';
  const dropped = live.dropped > 0 ? ` · ${live.dropped} dropped` : '';
  return `${Math.round(elapsedS)}s · target ${rate(live.target_rate)}/s · achieved ${rate(live.achieved_rate)}/s · in flight ${live.in_flight} · ${which} (${live.seconds}s) ${p95} · ${live.errors} errors${dropped}`;
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
      if (!enabled || (live.line.target_rate === null && !active)) return;
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
