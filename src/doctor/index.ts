// doctor: what a live service really does, probe by probe, against what its interface documents.
export { runDoctor, suggestedFlags, type DoctorOptions } from './run-doctor.js';
export { DEFAULT_MAX_CREDITS } from './context.js';
export { planLines, rowLines, verdictLine } from './render.js';
export { PROBE_NAMES, type DoctorReport, type DoctorVerdict, type ProbeRow, type ProbeStatus, type AuthForm } from './types.js';
