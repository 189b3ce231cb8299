// Ctrl-C handling: the first signal stops new requests; those in flight get the run's graceful stop
// (--graceful-stop), then the runner cuts them and records them as interrupted. A second signal
// cancels them at once (not recorded). Finished results are already on disk.
export interface StopControl {
  stop: AbortSignal;
  abort: AbortSignal;
  dispose(): void;
}

export function installStopSignals(say: (text: string) => void): StopControl {
  const stop = new AbortController();
  const abort = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => {
    if (!stop.signal.aborted) {
      say(`\n${signal}: no new requests; those in flight get the graceful stop, then are recorded as interrupted (again to abort now, unrecorded).`);
      stop.abort();
      return;
    }
    say(`${signal}: aborting requests in flight; everything finished is kept.`);
    abort.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    stop: stop.signal,
    abort: abort.signal,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
