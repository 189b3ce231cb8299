// Ctrl-C handling: the first signal stops new requests and gives in-flight ones a grace period;
// a second one (or the end of the grace) cancels them. Finished results are already on disk.
// SIGHUP (a closed terminal, a CI runner cancelling a job) is a stop like SIGINT: Node's default
// for it would kill the process at once, leaving run.json `running` and answers paid, unrecorded.
const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
export interface StopControl {
  stop: AbortSignal;
  abort: AbortSignal;
  dispose(): void;
}

export function installStopSignals(graceMs: number, say: (text: string) => void): StopControl {
  const stop = new AbortController();
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (!stop.signal.aborted) {
      say(`\n${signal}: no new requests; waiting up to ${Math.round(graceMs / 1000)}s for those in flight (again to abort now).`);
      stop.abort();
      timer = setTimeout(() => abort.abort(), graceMs);
      timer.unref();
      return;
    }
    say(`${signal}: aborting requests in flight; everything finished is kept.`);
    abort.abort();
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  return {
    stop: stop.signal,
    abort: abort.signal,
    dispose: () => {
      if (timer) clearTimeout(timer);
      for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    },
  };
}
