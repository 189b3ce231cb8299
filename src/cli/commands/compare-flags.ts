// The judging flags `compare` and `run --baseline` share: a module of its own so that `run`'s flags
// (parsed on every start, --help included) do not load the comparison itself.
import type { Options } from 'yargs';
import { DEFAULT_GATES, GATES } from '../../metrics/gates.js';

/** The judging flags `compare` and `run --baseline` share (defaults applied in compareOptionsFrom, so run can tell "not given"). */
export function compareTuningOptions(group: string): Record<'tolerance' | 'latency-tolerance' | 'credits-tolerance' | 'fail-on' | 'markdown' | 'allow-different-suites', Options> {
  return {
    tolerance: { type: 'string', describe: 'a pass-rate drop fails only when significant and larger than this, e.g. 2% (default 0)', group },
    'latency-tolerance': { type: 'string', describe: 'a latency rise counts only above this change of the median (default 10%)', group },
    'credits-tolerance': { type: 'string', describe: 'a credits rise counts only above this change per request (default 5%)', group },
    'fail-on': { type: 'string', describe: `what fails the verdict (exit 1): ${GATES.join(',')} or none (default ${DEFAULT_GATES.join(',')})`, group },
    markdown: { type: 'string', describe: 'also write a short markdown summary to FILE (for a pull-request comment)', group },
    'allow-different-suites': { type: 'boolean', describe: 'compare runs of differently named suites (else exit 2: a few shared ids are not the same questions)', group },
  };
}

