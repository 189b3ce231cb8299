// `run --baseline DIR`: compares the finished run with a baseline run (filled in by the compare work).
import type { CliIo } from '../io.js';
import type { SessionResult } from '../../session/run-session.js';
import { InputError } from '../../domain/errors.js';

export async function runBaselineCompare(_io: CliIo, _argv: Record<string, unknown>, _result: SessionResult, _quiet: boolean): Promise<boolean> {
  throw new InputError('--baseline is not available yet', { field: '--baseline' });
}
