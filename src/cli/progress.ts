// Progress on stderr: a live bar on a TTY (cli-progress), a plain line every few seconds in CI logs.
import type CliProgress from 'cli-progress';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

/** cli-progress (a CommonJS package) is loaded only for the live bar: CI logs, pipes and --quiet never draw one. */
const loadCliProgress = (): typeof CliProgress => createRequire(import.meta.url)('cli-progress') as typeof CliProgress;

export interface ProgressState {
  done: number;
  total: number;
  errors: number;
  creditsUsed: number;
}

export interface ProgressReporter {
  update(state: ProgressState): void;
  stop(): void;
}

const PLAIN_INTERVAL_MS = 5000;

function rateAndEta(state: ProgressState, startMs: number): { rps: number; etaS: number | null } {
  const elapsedS = (performance.now() - startMs) / 1000;
  const rps = elapsedS > 0 ? state.done / elapsedS : 0;
  const etaS = rps > 0 && state.total > 0 ? Math.max(0, (state.total - state.done) / rps) : null;
  return { rps, etaS };
}

export function formatProgressLine(state: ProgressState, rps: number, etaS: number | null): string {
  const eta = etaS === null ? '?' : `${Math.round(etaS)}s`;
  return `${state.done}/${state.total} done · ${rps.toFixed(1)} req/s · ${state.errors} errors · ${state.creditsUsed.toFixed(5)} credits · ETA ${eta}`;
}

export function createProgress(stream: NodeJS.WriteStream, enabled: boolean): ProgressReporter {
  const startMs = performance.now();
  if (!enabled) return { update: () => undefined, stop: () => undefined };
  if (stream.isTTY) {
    const cliProgress = loadCliProgress();
    const bar = new cliProgress.SingleBar(
      { stream, format: '{bar} {value}/{total} · {rps} req/s · {errors} errors · {credits} credits · ETA {etaS}', hideCursor: true, fps: 5 },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update(state) {
        const { rps, etaS } = rateAndEta(state, startMs);
        const payload = { rps: rps.toFixed(1), errors: state.errors, credits: state.creditsUsed.toFixed(5) };
        if (!started) {
          bar.start(state.total, state.done, { ...payload, etaS: '?' });
          started = true;
        }
        bar.setTotal(state.total);
        bar.update(state.done, { ...payload, etaS: etaS === null ? '?' : `${Math.round(etaS)}s` });
      },
      stop: () => started && bar.stop(),
    };
  }
  let lastPrintMs = startMs;
  let printedEnd = false;
  return {
    update(state) {
      const now = performance.now();
      // Every few seconds, and once on reaching the total (never a line per request past it).
      const atEnd = state.done >= state.total && !printedEnd;
      if (now - lastPrintMs < PLAIN_INTERVAL_MS && !atEnd) return;
      if (atEnd) printedEnd = true;
      lastPrintMs = now;
      const { rps, etaS } = rateAndEta(state, startMs);
      stream.write(`progress: ${formatProgressLine(state, rps, etaS)}\n`);
    },
    stop: () => undefined,
  };
}
