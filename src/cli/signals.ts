// Ctrl-C handling: the first signal stops new requests; those in flight get the run's graceful stop
// (--graceful-stop), then the runner cuts them and records them as interrupted. A second signal
// cuts the graceful stop short: they are cancelled at once, and recorded as interrupted all the same
// (the service may have charged them). Finished results are already on disk.
// SIGHUP (a closed terminal, a CI runner cancelling a job) is a stop like SIGINT: Node's default
// for it would kill the process at once, leaving run.json `running` and answers paid, unrecorded.
import type { SignalSource } from './host.js';

const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
export interface StopControl {
  stop: AbortSignal;
  abort: AbortSignal;
  dispose(): void;
}

export function installStopSignals(say: (text: string) => void, source: SignalSource = process): StopControl {
  const stop = new AbortController();
  const abort = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => {
    if (!stop.signal.aborted) {
      say(`\n${signal}: no new requests; those in flight get the graceful stop, then are recorded as interrupted (again to cut them now).`);
      stop.abort();
      return;
    }
    say(`${signal}: cancelling requests in flight now (recorded as interrupted: the service may have charged them); everything finished is kept.`);
    abort.abort();
  };
  for (const signal of STOP_SIGNALS) source.on(signal, onSignal);
  return {
    stop: stop.signal,
    abort: abort.signal,
    dispose: () => {
      for (const signal of STOP_SIGNALS) source.off(signal, onSignal);
    },
  };
}

/** A server command (serve, review) runs until SIGINT or SIGTERM, then closes what it started. */
export function serveUntilStopped(source: SignalSource, close: () => Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (): void => {
      source.off('SIGINT', stop);
      source.off('SIGTERM', stop);
      void close().then(resolve);
    };
    source.on('SIGINT', stop);
    source.on('SIGTERM', stop);
  });
}
