// The probe registry: one entry per ProbeName, run in PROBE_NAMES order (credits last: they read
// what the answers before them reported). The compiler asks for a probe for every name.
import { ANSWER_PROBES } from './probes-answers.js';
import { AUTH_PROBES } from './probes-auth.js';
import { CREDIT_PROBES } from './probes-credits.js';
import { THREAD_PROBES } from './probes-threads.js';
import type { Probe } from './probe.js';
import type { ProbeName } from './types.js';

export const PROBES: Record<ProbeName, Probe> = { ...AUTH_PROBES, ...ANSWER_PROBES, ...THREAD_PROBES, ...CREDIT_PROBES };
