// Words for the load analysis' knee, shared by the console and report.html: one way to say it.
import type { KneeSummary } from '../domain/load.js';
import { formatTick } from './format.js';

export const KNEE_WORDS: Record<KneeSummary['by'], string> = {
  latency: 'p95 latency doubled against the first windows',
  errors: 'errors passed 1%',
  pass_rate: 'the pass rate fell 5 points',
};

export function kneeWords(knee: KneeSummary): string {
  return `${formatTick(knee.rate_per_s)} starts/s: ${KNEE_WORDS[knee.by]}`;
}
