// What `run` and `estimate` share on the terminal: the key redacted, Ctrl-C handling, the progress
// line, and the session hooks that print a run's start, warnings and budget stop.
import { DEMO_ANSWERS_NOTICE } from '../domain/run.js';
import type { SessionHooks } from '../session/run-session.js';
import type { LiveInterval } from '../metrics/interval-recorder.js';
import { startEmbeddedService } from './embedded.js';
import type { CliIo } from './io.js';
import { createLiveView } from './live-line.js';
import { createProgress } from './progress.js';
import { createRedactor } from '../client/redact.js';
import { keyFileModeWarning, shortKeyWarning } from './secrets.js';
import { installStopSignals } from './signals.js';

export interface SessionConsole {
  /** Label of the start line, e.g. `kbbench` or `kbbench estimate: sampling`. */
  label: string;
  quiet: boolean;
  apiKey: string | undefined;
  /** --api-key-file, if given: warned of when others can read it. */
  apiKeyFile?: string | undefined;
  /** Every other credential the run knows (session/redact-sample.ts runCredentials): redacted like the service key. */
  credentials?: readonly string[];
}

/** Runs `body` with hooks wired to the terminal; the progress line is gone before `body`'s own output. */
export async function withSessionConsole<T>(io: CliIo, view: SessionConsole, body: (hooks: SessionHooks, settle: () => void) => Promise<T>): Promise<T> {
  io.setRedact(createRedactor([view.apiKey, ...(view.credentials ?? [])]));
  for (const warning of [shortKeyWarning([view.apiKey]), keyFileModeWarning(view.apiKeyFile)]) if (warning) io.err(warning);
  const signals = installStopSignals((t) => io.err(t), io.signals);
  const progress = createProgress(io.stderr, !view.quiet);
  // An open loop's progress is its rate, not a count to a total: the live line takes the bar's place.
  const live = createLiveView(io.stderr, !view.quiet, () => progress.stop());
  const hooks: SessionHooks = {
    // The embedded service's own key is redacted too (beside the one from the environment).
    launchEmbedded: async (embedded) => {
      const service = await startEmbeddedService(embedded, io.env);
      io.setRedact(createRedactor([view.apiKey, ...(view.credentials ?? []), service.key]));
      return service;
    },
    stop: signals.stop,
    abort: signals.abort,
    ...(view.credentials ? { credentials: view.credentials } : {}),
    onWaitStart: ({ startAt }) => {
      if (!view.quiet) io.err(`${view.label} ready; waiting until ${startAt} (--start-at) to start`);
    },
    onStart: (info) => {
      if (info.demo && !view.quiet) io.err(`${view.label} ${DEMO_ANSWERS_NOTICE}`);
      for (const w of info.warnings) io.err(`warning: ${w}`);
      const target = info.embedded ? `the embedded reference service (${info.baseUrl})` : info.baseUrl;
      if (view.quiet) return;
      if (info.load) io.err(`${view.label} against ${target} → ${info.runDir}\n  load: ${info.load}`);
      else io.err(`${view.label} ${info.total} requests against ${target} → ${info.runDir}`);
      if (info.workers !== undefined && info.workers > 1) io.err(`  workers: ${info.workers} client event loops (worker threads), joined into this one run`);
    },
    onProgress: (p) => {
      if (!live.active) progress.update(p);
    },
    // Quiet: no live line, so none is computed.
    ...(view.quiet ? {} : { onInterval: (interval: LiveInterval) => live.update(interval) }),
    onSweep: (sweep) => {
      if (view.quiet) return;
      const { sequential, saturation } = sweep.probes;
      const rates = sweep.rates.map((r) => String(r)).join(', ');
      io.err(`\nsweep: ${sequential.rate_per_s}/s one at a time, ${saturation.rate_per_s}/s at saturation (${saturation.concurrency} workers); now ${sweep.rates.length} rates of ${sweep.rate_ms / 1000} s each: ${rates} starts/s`);
    },
    onStopping: (reason, detail) => {
      if (reason === 'budget-exhausted') io.err(`\nkbbench: ${detail}; starting no new requests.`);
      else if (reason !== 'interrupted') io.err(`\nkbbench: stopping (${reason}): ${detail}; requests in flight finish, no new ones start.`);
    },
  };
  try {
    return await body(hooks, () => {
      progress.stop();
      live.stop();
    });
  } finally {
    progress.stop();
    live.stop();
    signals.dispose();
  }
}
