// The console's line per output at the end of a run (only cli/ prints it): sent, dropped, errors.
import type { OutputReport } from '../domain/output.js';

export function outputReportLine(r: OutputReport): string {
  const errors = r.errors > 0 ? `; ${r.errors} failed send(s), first: ${r.first_error ?? 'unknown'}` : '';
  const dropped = r.dropped_batches > 0 ? `${r.dropped_batches} batch(es) dropped (the run went on without them)` : 'none dropped';
  return `output ${r.kind} ${r.url}: ${r.sent_batches} batch(es) sent (${r.sent_samples} series samples), ${dropped}${errors}`;
}
